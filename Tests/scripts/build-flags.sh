# Sourced by every script that builds in .build (test.sh, memcheck.sh, docs.sh, screenshots.sh,
# kill-loop.sh), so that one build serves them all: a build with other flags would recompile
# everything, and the next script would recompile it back.
#
# C compiled with DWARF 4: Debian 12's valgrind (memcheck.sh, which reuses test.sh's build)
# cannot read clang's default DWARF 5 and gives up on the whole test bundle.
# shellcheck disable=SC2034  # used by the scripts that source this file
HERALD_BUILD_FLAGS=(-Xcc -gdwarf-4)
