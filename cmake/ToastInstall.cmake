#===- ToastInstall.cmake - Installed CMake package -------------------------===#
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/toast DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/toast DESTINATION include
  FILES_MATCHING PATTERN "*.inc" PATTERN "CMakeFiles" EXCLUDE)
install(EXPORT ToastTargets NAMESPACE Toast:: DESTINATION lib/cmake/Toast)

get_property(TOAST_ALL_LIBS GLOBAL PROPERTY TOAST_ALL_LIBS)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/ToastConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/Toast/ToastConfig.cmake
  INSTALL_DESTINATION lib/cmake/Toast)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/Toast/ToastConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/Toast/ToastConfig.cmake
  ${PROJECT_BINARY_DIR}/lib/cmake/Toast/ToastConfigVersion.cmake
  DESTINATION lib/cmake/Toast)
