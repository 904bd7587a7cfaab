// The dashboard's page assets (src/server/web), compiled into the daemon by
// cmake/embed_assets.cmake: served at their path under "/" ("/index.html", "/app.js", ...).
#pragma once

#include <cstddef>

namespace cuzk::server {

struct Asset {
    const char* path;  // "/index.html"
    const char* content_type;
    const unsigned char* data;
    size_t size;
};
extern const Asset kDashboardAssets[];
extern const size_t kDashboardAssetCount;

}  // namespace cuzk::server
