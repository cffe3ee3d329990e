# User Makevars for `make sanitize` (passed through R_MAKEVARS_USER): compile and link the C++
# sources with AddressSanitizer and UndefinedBehaviorSanitizer. Not used by any other target.
SAN = -fsanitize=address,undefined -fsanitize-recover=address -fno-omit-frame-pointer
CFLAGS = -g -O1 $(SAN)
CXXFLAGS = -g -O1 $(SAN)
CXX11FLAGS = -g -O1 $(SAN)
CXX14FLAGS = -g -O1 $(SAN)
CXX17FLAGS = -g -O1 $(SAN)
LDFLAGS = $(SAN)
