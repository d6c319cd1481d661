# tst_install: `cmake --install` of the build into PREFIX, then what the prefix must hold and must not.
# Run by CTest (tests/install/CMakeLists.txt) with BUILD_DIR, SOURCE_DIR, PREFIX and PUBLIC_HEADERS
# (the public headers' source paths, separated by "|").
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed (${rc}):\n${out}\n${err}")
endif()

set(problems)
# The package files and the libraries of every component.
foreach(f lib/cmake/RetryLab/RetryLabConfig.cmake lib/cmake/RetryLab/RetryLabConfigVersion.cmake
        lib/cmake/RetryLab/RetryLabTargets.cmake lib/libretrylab_core.a lib/libretrylab_content.a
        lib/libretrylab_live.a lib/libretrylab_testing.a)
    if(NOT EXISTS ${PREFIX}/${f})
        list(APPEND problems "missing ${f}")
    endif()
endforeach()
file(GLOB objects ${PREFIX}/lib/retrylab-objects/*)
if(NOT objects)
    list(APPEND problems "missing lib/retrylab-objects/ (the embedded presets, lessons and translations)")
endif()

# The include tree is the public surface, no more and no less.
string(REPLACE "|" ";" public "${PUBLIC_HEADERS}")
set(expected)
foreach(h ${public})
    get_filename_component(name ${h} NAME)
    list(APPEND expected ${name})
endforeach()
file(GLOB_RECURSE installed RELATIVE ${PREFIX}/include/retrylab ${PREFIX}/include/*)
list(SORT expected)
list(SORT installed)
if(NOT installed STREQUAL expected)
    list(APPEND problems "include/retrylab/ holds [${installed}], expected [${expected}]")
endif()

# Relocatable: nothing installed names the source tree, the build tree or the prefix itself (which
# lies inside the build tree here), so the prefix can be moved or packaged.
file(GLOB_RECURSE texts ${PREFIX}/*.cmake ${PREFIX}/*.h)
foreach(f ${texts})
    file(READ ${f} text)
    foreach(dir ${SOURCE_DIR} ${BUILD_DIR})
        string(FIND "${text}" "${dir}" at)
        if(NOT at EQUAL -1)
            file(RELATIVE_PATH rel ${PREFIX} ${f})
            list(APPEND problems "${rel} names ${dir}")
        endif()
    endforeach()
endforeach()

file(READ ${PREFIX}/lib/cmake/RetryLab/RetryLabConfigVersion.cmake version)
if(NOT version MATCHES "PACKAGE_VERSION \"1\\.")
    list(APPEND problems "RetryLabConfigVersion.cmake is not version 1.x")
endif()

if(problems)
    list(JOIN problems "\n  " text)
    message(FATAL_ERROR "the installed package in ${PREFIX} is wrong:\n  ${text}")
endif()
list(LENGTH texts n)
message(STATUS "tst_install: ${PREFIX} holds the package; ${n} text files name no source or build path")
