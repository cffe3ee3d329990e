# User Makevars for `make sanitize` (passed through R_MAKEVARS_USER): compile (-O0 keeps the
# Eigen-heavy build short; the inputs are small) and link the C++
# sources with AddressSanitizer and UndefinedBehaviorSanitizer. Not used by any other target.
# SAN_OPT (from the environment): the optimisation level, -O0 unless set (`make test-sanitizers`
# builds with -O1: the test suite runs Eigen's kernels on real sizes, which -O0 makes too slow).
SAN = -fsanitize=address,undefined -fsanitize-recover=address -fno-omit-frame-pointer
SAN_OPT ?= -O0
CFLAGS = -g $(SAN_OPT) $(SAN)
CXXFLAGS = -g $(SAN_OPT) $(SAN)
CXX11FLAGS = -g $(SAN_OPT) $(SAN)
CXX14FLAGS = -g $(SAN_OPT) $(SAN)
CXX17FLAGS = -g $(SAN_OPT) $(SAN)
LDFLAGS = $(SAN)
