#===- AddToast.cmake - Library helpers -------------------------------------===#
#
# Wrappers around add_mlir_library that keep our targets out of MLIR's export
# set (DISABLE_INSTALL) and put them into ToastTargets instead.
#
#===----------------------------------------------------------------------===#

function(_toast_export_library name)
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  install(TARGETS ${name} EXPORT ToastTargets
    ARCHIVE DESTINATION lib LIBRARY DESTINATION lib RUNTIME DESTINATION bin)
  set_property(GLOBAL APPEND PROPERTY TOAST_ALL_LIBS ${name})
endfunction()

# add_toast_library(name sources... [DEPENDS ...] [LINK_LIBS ...])
function(add_toast_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
  _toast_export_library(${name})
endfunction()

# Same, for libraries holding a dialect (registers it in MLIR_DIALECT_LIBS).
function(add_toast_dialect_library name)
  add_mlir_dialect_library(${ARGV} DISABLE_INSTALL)
  _toast_export_library(${name})
endfunction()

# add_toast_tool(name sources... LINK_LIBS ...)
function(add_toast_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  llvm_update_compile_flags(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS})
  install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()
