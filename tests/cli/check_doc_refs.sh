#!/usr/bin/env bash
# Every docs/<name>.md that the README, the docs, the example configuration, the sources and
# the scripts name exists: a reader sent to a missing page is a broken promise.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
missing=0
while IFS= read -r ref; do
    if [ ! -f "$ref" ]; then
        echo "missing: $ref, named in: $(grep -rl --include='*.md' --include='*.toml' --include='*.hpp' \
            --include='*.cpp' --include='*.cu' --include='*.proto' -F "$ref" README.md cuzk.example.toml docs src \
            include proto scripts 2>/dev/null | tr '\n' ' ')"
        missing=1
    fi
done < <(grep -rhoE --include='*.md' --include='*.toml' --include='*.hpp' --include='*.cpp' --include='*.cu' \
    --include='*.proto' 'docs/[A-Za-z0-9_.-]+\.md' README.md cuzk.example.toml docs src include proto scripts | sort -u)
[ "$missing" = 0 ] && echo "every docs/*.md named exists"
exit "$missing"
