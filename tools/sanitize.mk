# User Makevars for `make sanitize` (passed through R_MAKEVARS_USER): compile (-O0 keeps the
# Eigen-heavy build short; the inputs are small) and link the C++
# sources with AddressSanitizer and UndefinedBehaviorSanitizer. Not used by any other target.
SAN = -fsanitize=address,undefined -fsanitize-recover=address -fno-omit-frame-pointer
CFLAGS = -g -O0 $(SAN)
CXXFLAGS = -g -O0 $(SAN)
CXX11FLAGS = -g -O0 $(SAN)
CXX14FLAGS = -g -O0 $(SAN)
CXX17FLAGS = -g -O0 $(SAN)
LDFLAGS = $(SAN)
