/* An indirect call through a struct field that another function set
   (SQLite's pPage->xParseCell, set in decodeFlags, called in
   btreeParseCell): the targets are address-taken in page_init, not at
   the call, and still count as the call's targets; the use rebuild
   guards the call with its usual target.  */
/* { dg-do run } */
/* { dg-options "-O2" } */

struct page
{
  int kind;
  int (*parse) (const unsigned char *, int);
};

static int parse_int (const unsigned char *p, int n) { return p[0] + n; }
static int parse_blob (const unsigned char *p, int n) { return p[1] - n; }

__attribute__ ((noinline)) void
page_init (struct page *pg, int kind)
{
  pg->kind = kind;
  if (kind)
    pg->parse = parse_int;
  else
    pg->parse = parse_blob;
}

__attribute__ ((noinline)) int
scan (struct page *pg, const unsigned char *cells, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += pg->parse (cells + i, i);
  return s;
}

int
main (void)
{
  static unsigned char cells[1001];
  struct page a, b;
  page_init (&a, 1);
  page_init (&b, 0);
  return (scan (&a, cells, 1000) + scan (&b, cells, 100)) == 12345;
}

/* { dg-final { scan-latepgo-use-dump "^  value site 0 targets parse_int:1000 parse_blob:100$" } } */
/* { dg-final { scan-latepgo-use-tree-dump optimized "if \\(_\[0-9\]+ == parse_int\\)" } } */
