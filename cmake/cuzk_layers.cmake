# The layers of cuzk (docs/DESIGN.md), bottom up: name, source folders (under src/), and the
# layers it uses directly. Each becomes a static library cuzk_<name> linked PUBLIC to those
# (the uses of the uses come transitively); a layer without sources is an INTERFACE target.
# `ff` uses nothing but cuzk/common/hd.hpp, the host/device macro header that every layer may
# include: the portable-arithmetic check (scripts/test) builds cuzk_ff and its tests alone.
set(CUZK_LAYER_TABLE
  "ff|ff|"
  "common|common|"
  "ec|ec|ff common"
  "pairing|pairing|ec"
  "ntt|ntt|ff common"
  "msm|msm|ec common"
  "hash|hash|ff common"
  "r1cs|r1cs|ff common hash"
  "gadgets|gadgets|r1cs hash"
  "groth16|groth16|msm ntt pairing r1cs"
  "formats|formats|groth16"
  "filecoin|filecoin|formats gadgets r1cs hash"
  "circuits|circuits|filecoin gadgets groth16"
  "gpu|gpu gpu/common gpu/ntt gpu/msm|ntt msm ec ff common"
  "backend|backend backend/cpu backend/cuda|groth16 gpu"
  "kinds|kinds|circuits filecoin"
  "engine|engine|kinds formats backend gpu")

# Fills CUZK_LAYER_<name>_DIRS and CUZK_LAYER_<name>_DEPS, and CUZK_LAYERS (bottom up).
function(cuzk_parse_layers)
  set(layers)
  foreach(row IN LISTS CUZK_LAYER_TABLE)
    string(REPLACE "|" ";" fields "${row}")
    list(GET fields 0 name)
    list(GET fields 1 dirs)
    list(GET fields 2 deps)
    separate_arguments(dirs)
    separate_arguments(deps)
    list(APPEND layers ${name})
    set(CUZK_LAYER_${name}_DIRS ${dirs} PARENT_SCOPE)
    set(CUZK_LAYER_${name}_DEPS ${deps} PARENT_SCOPE)
  endforeach()
  set(CUZK_LAYERS ${layers} PARENT_SCOPE)
endfunction()
cuzk_parse_layers()

# The sources of a layer's folders: *.cpp, and *.cu where CUDA is on.
function(cuzk_layer_sources layer out)
  set(sources)
  foreach(dir IN LISTS CUZK_LAYER_${layer}_DIRS)
    file(GLOB s CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${dir}/*.cpp)
    list(APPEND sources ${s})
    if(CUZK_HAVE_CUDA)
      file(GLOB s CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${dir}/*.cu)
      list(APPEND sources ${s})
    endif()
  endforeach()
  set(${out} ${sources} PARENT_SCOPE)
endfunction()

function(cuzk_add_layers)
  foreach(layer IN LISTS CUZK_LAYERS)
    set(target cuzk_${layer})
    cuzk_layer_sources(${layer} sources)
    add_library(${target} STATIC ${sources})
    target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/include)
    foreach(dep IN LISTS CUZK_LAYER_${layer}_DEPS)
      target_link_libraries(${target} PUBLIC cuzk_${dep})
    endforeach()
    cuzk_project_target(${target})
  endforeach()
  target_link_libraries(cuzk_common PUBLIC Threads::Threads)
  target_link_libraries(cuzk_formats PRIVATE nlohmann_json::nlohmann_json)
  target_link_libraries(cuzk_filecoin PRIVATE nlohmann_json::nlohmann_json)
  target_link_libraries(cuzk_engine PRIVATE nlohmann_json::nlohmann_json)
  # The gpu layer: CUDA kernels when CUDA is on, otherwise entry points that say "built
  # without CUDA" (no_cuda.cpp, all #if !CUZK_HAVE_CUDA). Its private headers (src/gpu/...,
  # included as "gpu/<primitive>/<file>.hpp") serve the CUDA backend and the gpu tests too.
  target_compile_definitions(cuzk_gpu PUBLIC CUZK_HAVE_CUDA=$<BOOL:${CUZK_HAVE_CUDA}>)
  target_include_directories(cuzk_gpu PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_include_directories(cuzk_backend PRIVATE ${PROJECT_SOURCE_DIR}/src)
  if(CUZK_HAVE_CUDA)
    target_link_libraries(cuzk_gpu PUBLIC CUDA::cudart_static)
  endif()

  # Layers.IncludesPointDown: every #include "cuzk/<layer>/..." of a layer's sources and
  # public headers names the layer itself or one it may use (transitively).
  set(table_args)
  foreach(layer IN LISTS CUZK_LAYERS)
    cuzk_layer_closure(${layer} closure)
    string(REPLACE ";" "," closure "${closure}")
    string(REPLACE ";" "," dirs "${CUZK_LAYER_${layer}_DIRS}")
    list(APPEND table_args "${layer}:${dirs}:${closure}")
  endforeach()
  string(REPLACE ";" "|" table_args "${table_args}")
  set(CUZK_LAYER_CHECK_ARGS -DCUZK_ROOT=${PROJECT_SOURCE_DIR} "-DCUZK_TABLE=${table_args}"
      -P ${PROJECT_SOURCE_DIR}/cmake/cuzk_layer_check.cmake PARENT_SCOPE)
endfunction()

# The layers `layer` may use: its deps and theirs, transitively.
function(cuzk_layer_closure layer out)
  set(result)
  set(todo ${CUZK_LAYER_${layer}_DEPS})
  while(todo)
    list(POP_FRONT todo dep)
    if(NOT dep IN_LIST result)
      list(APPEND result ${dep})
      list(APPEND todo ${CUZK_LAYER_${dep}_DEPS})
    endif()
  endwhile()
  set(${out} ${result} PARENT_SCOPE)
endfunction()
