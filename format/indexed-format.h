/* indexed-format.h: the constants of LLVM's indexed profile, version 7
   (doc/indexed-format.md, section 2).  */

#ifndef LATEPGO_INDEXED_FORMAT_H
#define LATEPGO_INDEXED_FORMAT_H

#define LATEPGO_INDEXED_MAGIC     0x8169666f72706cffULL
#define LATEPGO_INDEXED_VERSION   7ULL

#endif /* LATEPGO_INDEXED_FORMAT_H */
