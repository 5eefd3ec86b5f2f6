/* A zlib-compressed names chunk, as the plugin emits by default
   (ULEB128 8 = length of "bar\001main", ULEB128 16 = compressed
   length, then the zlib stream), followed by zero padding and an
   uncompressed chunk: llvm-profdata must resolve both names:
   bar [7], main [1].  */

#include "lp-test.h"

LP_FUNCTION (main, LP_MD5_main, 0x1234, 1)
LP_FUNCTION (bar, LP_MD5_bar, 0x5, 1)

__asm__ (".pushsection __llvm_prf_names,\"a\",@progbits\n"
	 "\t.uleb128 8\n"
	 "\t.uleb128 16\n"
	 "\t.byte 0x78,0xda,0x4b,0x4a,0x2c,0x62,0xcc,0x4d\n"
	 "\t.byte 0xcc,0xcc,0x03,0x00,0x0c,0x87,0x02,0xdc\n"
	 "\t.byte 0, 0, 0\n"
	 "\t.popsection");
LP_NAMES ("bar")

int
main (void)
{
  lp_main[0]++;
  lp_bar[0] += 7;
  return 0;
}
