/* wordfreq.c: count the words of text files and print the most frequent.

   The example program of latepgo's demo (demo/run-demo.sh).  It is an
   ordinary program with a profile worth having: a hot path (reading,
   splitting into words, hashing, probing the table), warm paths (growing
   the table, sorting) and cold ones (numbers, non-ASCII bytes, words too
   long, errors) that a training run reaches rarely or never.

   Usage: wordfreq [-n TOP] [-m MINLEN] [-s] [FILE]...
     -n TOP     print the TOP most frequent words (default 20)
     -m MINLEN  ignore words shorter than MINLEN bytes (default 1)
     -s         ignore common English stop words
   With no FILE, read standard input.

   A word is a run of letters (ASCII letters are folded to lower case;
   bytes of 0x80 and above count as letters, so UTF-8 words stay whole)
   with single apostrophes inside it.  A run of digits counts as the
   word "<number>".  Words longer than MAX_WORD bytes are cut.  */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_WORD 64
#define INITIAL_SLOTS 1024
#define ARENA_CHUNK (64 * 1024)

/* One distinct word.  */
struct entry
{
  const char *word;
  size_t len;
  unsigned long hash;
  unsigned long count;
};

/* Open-addressing hash table with linear probing; SLOTS is a power of
   two, and USED stays below three quarters of it.  */
struct table
{
  struct entry *slots;
  size_t nslots;
  size_t used;
};

/* Word storage: words are copied into large chunks and never freed
   one by one.  */
struct arena
{
  char *chunk;
  size_t left;
};

struct stats
{
  unsigned long words;
  unsigned long numbers;
  unsigned long non_ascii;
  unsigned long truncated;
  unsigned long skipped;
  unsigned long rehashes;
};

static const char *progname = "wordfreq";
static struct stats stats;

static const char *const stop_words[] = {
  "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from",
  "had", "has", "have", "he", "her", "his", "i", "in", "is", "it", "its",
  "not", "of", "on", "or", "she", "that", "the", "their", "them", "they",
  "this", "to", "was", "we", "were", "which", "with", "you"
};

/* Print "wordfreq: MSG: strerror(errno)" and exit with status 2.  */
static void
die (const char *msg)
{
  fprintf (stderr, "%s: %s: %s\n", progname, msg, strerror (errno));
  exit (2);
}

static void *
xcalloc (size_t n, size_t size)
{
  void *p = calloc (n, size);
  if (p == NULL)
    die ("out of memory");
  return p;
}

/* Return a copy of the LEN bytes at WORD, kept in ARENA.  */
static const char *
arena_copy (struct arena *arena, const char *word, size_t len)
{
  char *p;

  if (arena->left < len + 1)
    {
      arena->chunk = malloc (ARENA_CHUNK);
      if (arena->chunk == NULL)
	die ("out of memory");
      arena->left = ARENA_CHUNK;
    }
  p = arena->chunk;
  memcpy (p, word, len);
  p[len] = '\0';
  arena->chunk += len + 1;
  arena->left -= len + 1;
  return p;
}

/* FNV-1a hash of the LEN bytes at S.  */
static unsigned long
hash_word (const char *s, size_t len)
{
  unsigned long h = 14695981039346656037UL;
  size_t i;

  for (i = 0; i < len; i++)
    {
      h ^= (unsigned char) s[i];
      h *= 1099511628211UL;
    }
  return h;
}

static void
table_init (struct table *t, size_t nslots)
{
  t->slots = xcalloc (nslots, sizeof *t->slots);
  t->nslots = nslots;
  t->used = 0;
}

/* Double the size of T and reinsert every entry.  */
static void
table_grow (struct table *t)
{
  struct table bigger;
  size_t i;

  table_init (&bigger, t->nslots * 2);
  for (i = 0; i < t->nslots; i++)
    if (t->slots[i].word != NULL)
      {
	size_t j = t->slots[i].hash & (bigger.nslots - 1);
	while (bigger.slots[j].word != NULL)
	  j = (j + 1) & (bigger.nslots - 1);
	bigger.slots[j] = t->slots[i];
	bigger.used++;
      }
  free (t->slots);
  *t = bigger;
  stats.rehashes++;
}

/* Count one occurrence of the LEN bytes at WORD in T, copying a new
   word into ARENA.  */
static void
table_add (struct table *t, struct arena *arena, const char *word, size_t len)
{
  unsigned long h = hash_word (word, len);
  size_t i = h & (t->nslots - 1);

  while (t->slots[i].word != NULL)
    {
      struct entry *e = &t->slots[i];
      if (e->hash == h && e->len == len && memcmp (e->word, word, len) == 0)
	{
	  e->count++;
	  return;
	}
      i = (i + 1) & (t->nslots - 1);
    }

  t->slots[i].word = arena_copy (arena, word, len);
  t->slots[i].len = len;
  t->slots[i].hash = h;
  t->slots[i].count = 1;
  if (++t->used * 4 > t->nslots * 3)
    table_grow (t);
}

static int
is_stop_word (const char *word, size_t len)
{
  size_t lo = 0, hi = sizeof stop_words / sizeof stop_words[0];

  /* stop_words is sorted: binary search.  */
  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      int c = strncmp (word, stop_words[mid], len);
      if (c == 0 && stop_words[mid][len] != '\0')
	c = -1;
      if (c == 0)
	return 1;
      if (c < 0)
	hi = mid;
      else
	lo = mid + 1;
    }
  return 0;
}

/* Options.  */
static size_t min_len = 1;
static int skip_stop_words;

/* Count the word of LEN bytes at WORD, unless the options exclude it.  */
static void
take_word (struct table *t, struct arena *arena, const char *word, size_t len)
{
  if (len < min_len || (skip_stop_words && is_stop_word (word, len)))
    {
      stats.skipped++;
      return;
    }
  stats.words++;
  table_add (t, arena, word, len);
}

/* Count the word of LEN bytes collected in WORD (LEN may exceed
   MAX_WORD, then the word was cut), without trailing apostrophes.  */
static void
end_word (struct table *t, struct arena *arena, const char *word, size_t len)
{
  if (len > MAX_WORD)
    len = MAX_WORD;
  while (len > 0 && word[len - 1] == '\'')
    len--;
  if (len > 0)
    take_word (t, arena, word, len);
}

/* Split the text read from F into words and count them in T.  */
static void
count_stream (FILE *f, struct table *t, struct arena *arena)
{
  char word[MAX_WORD];
  size_t len = 0;
  int in_number = 0;
  int c;

  while ((c = getc (f)) != EOF)
    {
      if (isalpha (c) || c >= 0x80
	  || (c == '\'' && len > 0 && !in_number))
	{
	  if (in_number)
	    {
	      take_word (t, arena, "<number>", 8);
	      in_number = 0;
	      len = 0;
	    }
	  if (c >= 0x80)
	    stats.non_ascii++;
	  if (len < MAX_WORD)
	    word[len++] = (char) tolower (c);
	  else if (len == MAX_WORD)
	    {
	      /* Count the cut word once, not once per extra byte.  */
	      stats.truncated++;
	      len++;
	    }
	}
      else if (isdigit (c))
	{
	  if (len > 0 && !in_number)
	    {
	      end_word (t, arena, word, len);
	      len = 0;
	    }
	  in_number = 1;
	  stats.numbers++;
	}
      else
	{
	  if (in_number)
	    take_word (t, arena, "<number>", 8);
	  else if (len > 0)
	    end_word (t, arena, word, len);
	  len = 0;
	  in_number = 0;
	}
    }
  if (in_number)
    take_word (t, arena, "<number>", 8);
  else if (len > 0)
    end_word (t, arena, word, len);
}

/* qsort order: more frequent first, then alphabetical.  (The demo is a
   self-contained program, so it shares no code with contrib/.)  */
static int
compare_entries (const void *a, const void *b)
{
  const struct entry *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp (x->word, y->word);
}

/* Print the TOP most frequent words of T.  */
static void
report (struct table *t, size_t top)
{
  struct entry *all = xcalloc (t->used ? t->used : 1, sizeof *all);
  size_t i, n = 0;

  for (i = 0; i < t->nslots; i++)
    if (t->slots[i].word != NULL)
      all[n++] = t->slots[i];
  qsort (all, n, sizeof *all, compare_entries);

  printf ("%lu words, %zu distinct", stats.words, n);
  if (stats.skipped)
    printf (", %lu skipped", stats.skipped);
  if (stats.numbers)
    printf (", %lu digits", stats.numbers);
  if (stats.non_ascii)
    printf (", %lu non-ASCII bytes", stats.non_ascii);
  if (stats.truncated)
    printf (", %lu words cut to %d bytes", stats.truncated, MAX_WORD);
  printf ("; table grown %lu times\n", stats.rehashes);

  for (i = 0; i < n && i < top; i++)
    printf ("%8lu %6.2f%%  %s\n", all[i].count,
	    100.0 * all[i].count / (stats.words ? stats.words : 1),
	    all[i].word);
  free (all);
}

static void
usage (void)
{
  fprintf (stderr, "usage: %s [-n TOP] [-m MINLEN] [-s] [FILE]...\n",
	   progname);
  exit (2);
}

/* Return the non-negative number in ARG, or exit with a usage error.  */
static size_t
parse_count (const char *arg)
{
  char *end;
  long v;

  errno = 0;
  v = strtol (arg, &end, 10);
  if (errno != 0 || *end != '\0' || end == arg || v < 0)
    {
      fprintf (stderr, "%s: invalid number '%s'\n", progname, arg);
      usage ();
    }
  return (size_t) v;
}

int
main (int argc, char **argv)
{
  struct table table;
  struct arena arena = { NULL, 0 };
  size_t top = 20;
  int opt, i;

  while ((opt = getopt (argc, argv, "n:m:s")) != -1)
    switch (opt)
      {
      case 'n':
	top = parse_count (optarg);
	break;
      case 'm':
	min_len = parse_count (optarg);
	break;
      case 's':
	skip_stop_words = 1;
	break;
      default:
	usage ();
      }

  table_init (&table, INITIAL_SLOTS);
  if (optind == argc)
    count_stream (stdin, &table, &arena);
  for (i = optind; i < argc; i++)
    {
      FILE *f = fopen (argv[i], "r");
      if (f == NULL)
	die (argv[i]);
      count_stream (f, &table, &arena);
      if (ferror (f))
	die (argv[i]);
      fclose (f);
    }
  report (&table, top);
  return 0;
}
