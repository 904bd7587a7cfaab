# Compiler flags for project targets: warnings as errors, the x86-64 ADX path when the
# building machine has it, and the sanitizer build.
include(CheckCXXSourceRuns)

set(CUZK_ARCH_FLAGS)
if(NOT CUZK_PORTABLE AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  # MULX needs BMI2 and ADCX/ADOX need ADX (Intel Broadwell, AMD Zen and later).
  set(CMAKE_REQUIRED_FLAGS "-mbmi2 -madx")
  check_cxx_source_runs([=[
    #include <cpuid.h>
    int main() {
      unsigned a, b, c, d;
      if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 1;
      return ((b >> 8) & 1) && ((b >> 19) & 1) ? 0 : 1;  // BMI2, ADX
    }]=] CUZK_CPU_HAS_ADX)
  unset(CMAKE_REQUIRED_FLAGS)
  if(CUZK_CPU_HAS_ADX)
    set(CUZK_ARCH_FLAGS -mbmi2 -madx)
  endif()
endif()

set(CUZK_SANITIZE_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)

# Applies the project's flags to one of our own targets (never to third-party code).
function(cuzk_project_target target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror ${CUZK_ARCH_FLAGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror>)
  if(CUZK_PORTABLE)
    target_compile_definitions(${target} PUBLIC CUZK_FF_FORCE_PORTABLE=1)
  endif()
  if(CUZK_SANITIZE)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${CUZK_SANITIZE_FLAGS}>)
    target_link_options(${target} PUBLIC ${CUZK_SANITIZE_FLAGS})
  endif()
  if(COMMAND cuzk_cuda_check_only_target)
    cuzk_cuda_check_only_target(${target})
  endif()
endfunction()
