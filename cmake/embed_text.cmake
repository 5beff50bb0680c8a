# embed_text.cmake — turns a text file into a C source holding it as a NUL-terminated array, so
# that rampart carries its data (data/pricing.json) without reading a file at run time: a hook
# is a fresh process and must not depend on an installed data directory.
#
# Run as: cmake -DIN=file -DOUT=file.c -DNAME=symbol -DHEADER=header.h -P embed_text.cmake
# Defines `const char NAME[]` (the bytes plus a NUL) and `const size_t NAME_len` (without it).
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR n "${hex_len} / 2")
# Two hex digits per byte → "0x..," (a string literal would trip over quotes and the 4095-byte
# limit some compilers put on literals).
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUT}"
     "/* Generated from ${IN} by cmake/embed_text.cmake; do not edit. */\n"
     "#include \"${HEADER}\"\n\n"
     "const char ${NAME}[] = {\n    ${bytes}0x00};\n"
     "const size_t ${NAME}_len = ${n};\n")
