# SPDX-License-Identifier: Apache-2.0
# cmake -DIN=FILE -DOUT=FILE.c -DNAME=symbol -P embed.cmake
# Write FILE's bytes as a NUL-terminated C array `const char NAME[]`, so text that people edit
# as a file (the prose of docs/plan.md) is compiled in without xxd or a generator program.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "(..)" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n\t"
       bytes "${bytes}")
file(WRITE ${OUT}.tmp "/* Generated from ${IN} by embed.cmake: do not edit. */\n"
     "extern const char ${NAME}[];\nconst char ${NAME}[] = {\n\t${bytes}0x00\n};\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
