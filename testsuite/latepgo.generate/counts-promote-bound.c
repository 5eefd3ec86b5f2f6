/* Counts stay exact in loops with more counters than promotion takes
   (promote.cc: 20 per loop, hottest first): the outer loop takes 20 of
   the 48 cases' counters, the inner loop 20 more, the rest stay on
   their edges, and every case must still count what ran.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

volatile int sink;
unsigned char data[1176];	/* Case K appears K + 1 times.  */

__attribute__ ((noinline)) unsigned
scan (int reps, int n)
{
  unsigned s = 0;
  for (int r = 0; r < reps; r++)
    for (int i = 0; i < n; i++)
      switch (data[i])
	{
	case 0: s = s * 3 + 0; break;	/* count(3) */
	case 1: s = s * 3 + 1; break;	/* count(6) */
	case 2: s = s * 3 + 2; break;	/* count(9) */
	case 3: s = s * 3 + 3; break;	/* count(12) */
	case 4: s = s * 3 + 4; break;	/* count(15) */
	case 5: s = s * 3 + 5; break;	/* count(18) */
	case 6: s = s * 3 + 6; break;	/* count(21) */
	case 7: s = s * 3 + 7; break;	/* count(24) */
	case 8: s = s * 3 + 8; break;	/* count(27) */
	case 9: s = s * 3 + 9; break;	/* count(30) */
	case 10: s = s * 3 + 10; break;	/* count(33) */
	case 11: s = s * 3 + 11; break;	/* count(36) */
	case 12: s = s * 3 + 12; break;	/* count(39) */
	case 13: s = s * 3 + 13; break;	/* count(42) */
	case 14: s = s * 3 + 14; break;	/* count(45) */
	case 15: s = s * 3 + 15; break;	/* count(48) */
	case 16: s = s * 3 + 16; break;	/* count(51) */
	case 17: s = s * 3 + 17; break;	/* count(54) */
	case 18: s = s * 3 + 18; break;	/* count(57) */
	case 19: s = s * 3 + 19; break;	/* count(60) */
	case 20: s = s * 3 + 20; break;	/* count(63) */
	case 21: s = s * 3 + 21; break;	/* count(66) */
	case 22: s = s * 3 + 22; break;	/* count(69) */
	case 23: s = s * 3 + 23; break;	/* count(72) */
	case 24: s = s * 3 + 24; break;	/* count(75) */
	case 25: s = s * 3 + 25; break;	/* count(78) */
	case 26: s = s * 3 + 26; break;	/* count(81) */
	case 27: s = s * 3 + 27; break;	/* count(84) */
	case 28: s = s * 3 + 28; break;	/* count(87) */
	case 29: s = s * 3 + 29; break;	/* count(90) */
	case 30: s = s * 3 + 30; break;	/* count(93) */
	case 31: s = s * 3 + 31; break;	/* count(96) */
	case 32: s = s * 3 + 32; break;	/* count(99) */
	case 33: s = s * 3 + 33; break;	/* count(102) */
	case 34: s = s * 3 + 34; break;	/* count(105) */
	case 35: s = s * 3 + 35; break;	/* count(108) */
	case 36: s = s * 3 + 36; break;	/* count(111) */
	case 37: s = s * 3 + 37; break;	/* count(114) */
	case 38: s = s * 3 + 38; break;	/* count(117) */
	case 39: s = s * 3 + 39; break;	/* count(120) */
	case 40: s = s * 3 + 40; break;	/* count(123) */
	case 41: s = s * 3 + 41; break;	/* count(126) */
	case 42: s = s * 3 + 42; break;	/* count(129) */
	case 43: s = s * 3 + 43; break;	/* count(132) */
	case 44: s = s * 3 + 44; break;	/* count(135) */
	case 45: s = s * 3 + 45; break;	/* count(138) */
	case 46: s = s * 3 + 46; break;	/* count(141) */
	case 47: s = s * 3 + 47; break;	/* count(144) */
	default: s--; break;
	}
  return s;
}

int
main (void)
{
  int n = 0;
  for (int k = 0; k < 48; k++)
    for (int j = 0; j <= k; j++)
      data[n++] = k;
  sink = scan (3, n);
  return 0;
}

/* { dg-final { latepgo-use-counts } } */
