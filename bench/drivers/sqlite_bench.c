/* sqlite_bench.c: a SQL workload on the SQLite amalgamation.

   Usage: sqlite_bench SEED ROWS QUERIES MIX
     SEED     seed of the data and query generator
     ROWS     number of orders (customers = ROWS/8, products = ROWS/32 + 16)
     QUERIES  number of queries run after loading
     MIX   0 = training mix, 1 = evaluation mix (other weights of the
           query kinds, other LIKE patterns, other update/delete share)

   The database is in memory, so the run measures SQLite's code and not
   the file system.  The program prints one checksum of every result it
   read; the same arguments give the same checksum with every compiler
   and every instrumentation, which the bench scripts check.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "sqlite3.h"

static uint64_t rng_state;
static uint32_t
rnd (void)
{
  /* xorshift64*  */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t) ((rng_state * 2685821657736338717ULL) >> 32);
}
static int rnd_below (int n) { return (int) (rnd () % (uint32_t) n); }

static sqlite3 *db;
static uint64_t checksum = 1469598103934665603ULL;

static void
mix_u64 (uint64_t v)
{
  checksum ^= v;
  checksum *= 1099511628211ULL;
}

static void
mix_text (const unsigned char *s)
{
  if (!s)
    {
      mix_u64 (0x9e3779b9);
      return;
    }
  while (*s)
    mix_u64 (*s++);
}

static void
die (const char *what)
{
  fprintf (stderr, "sqlite_bench: %s: %s\n", what, sqlite3_errmsg (db));
  exit (1);
}

static void
exec (const char *sql)
{
  char *err = 0;
  if (sqlite3_exec (db, sql, 0, 0, &err) != SQLITE_OK)
    {
      fprintf (stderr, "sqlite_bench: %s: %s\n", sql, err);
      exit (1);
    }
}

static sqlite3_stmt *
prep (const char *sql)
{
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2 (db, sql, -1, &st, 0) != SQLITE_OK)
    die (sql);
  return st;
}

/* Step ST to the end, folding every column of every row into the
   checksum.  Returns the number of rows.  */
static int
drain (sqlite3_stmt *st)
{
  int rows = 0, rc;
  while ((rc = sqlite3_step (st)) == SQLITE_ROW)
    {
      int n = sqlite3_column_count (st);
      for (int i = 0; i < n; i++)
	switch (sqlite3_column_type (st, i))
	  {
	  case SQLITE_INTEGER:
	    mix_u64 ((uint64_t) sqlite3_column_int64 (st, i));
	    break;
	  case SQLITE_FLOAT:
	    /* Round: the sums are exact enough at this scale.  */
	    mix_u64 ((uint64_t) (int64_t) (sqlite3_column_double (st, i) * 100.0));
	    break;
	  case SQLITE_NULL:
	    mix_u64 (7);
	    break;
	  default:
	    mix_text (sqlite3_column_text (st, i));
	  }
      rows++;
    }
  if (rc != SQLITE_DONE)
    die ("step");
  sqlite3_reset (st);
  mix_u64 ((uint64_t) rows);
  return rows;
}

static const char *const syll[] = {
  "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "bar", "qu", "dor",
  "fin", "gal", "hem", "jor"
};
static const char *const cities[] = {
  "Amsterdam", "Berlin", "Cairo", "Dakar", "Edinburgh", "Florence",
  "Geneva", "Hanoi", "Istanbul", "Jakarta", "Kyoto", "Lima", "Madrid",
  "Nairobi", "Oslo", "Porto"
};
static const char *const categories[] = {
  "tools", "garden", "kitchen", "books", "toys", "sports", "music", "office"
};

static void
make_word (char *buf, int syllables)
{
  buf[0] = 0;
  for (int i = 0; i < syllables; i++)
    strcat (buf, syll[rnd_below (16)]);
}

static void
load (int rows)
{
  int ncust = rows / 8 + 1, nprod = rows / 32 + 16;
  char name[64], note[128];

  exec ("CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT, "
	"city TEXT, age INTEGER, balance REAL)");
  exec ("CREATE TABLE product(id INTEGER PRIMARY KEY, name TEXT, "
	"category TEXT, price REAL)");
  exec ("CREATE TABLE orders(id INTEGER PRIMARY KEY, cust INTEGER, "
	"prod INTEGER, qty INTEGER, day INTEGER, note TEXT)");

  exec ("BEGIN");
  sqlite3_stmt *ic = prep ("INSERT INTO customer VALUES(?,?,?,?,?)");
  for (int i = 1; i <= ncust; i++)
    {
      make_word (name, 2 + rnd_below (3));
      sqlite3_bind_int (ic, 1, i);
      sqlite3_bind_text (ic, 2, name, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (ic, 3, cities[rnd_below (16)], -1, SQLITE_STATIC);
      sqlite3_bind_int (ic, 4, 18 + rnd_below (70));
      sqlite3_bind_double (ic, 5, rnd_below (1000000) / 100.0);
      if (sqlite3_step (ic) != SQLITE_DONE)
	die ("insert customer");
      sqlite3_reset (ic);
    }
  sqlite3_finalize (ic);

  sqlite3_stmt *ip = prep ("INSERT INTO product VALUES(?,?,?,?)");
  for (int i = 1; i <= nprod; i++)
    {
      make_word (name, 3);
      sqlite3_bind_int (ip, 1, i);
      sqlite3_bind_text (ip, 2, name, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text (ip, 3, categories[rnd_below (8)], -1, SQLITE_STATIC);
      sqlite3_bind_double (ip, 4, (100 + rnd_below (50000)) / 100.0);
      if (sqlite3_step (ip) != SQLITE_DONE)
	die ("insert product");
      sqlite3_reset (ip);
    }
  sqlite3_finalize (ip);

  sqlite3_stmt *io = prep ("INSERT INTO orders(cust,prod,qty,day,note) "
			   "VALUES(?,?,?,?,?)");
  for (int i = 1; i <= rows; i++)
    {
      sqlite3_bind_int (io, 1, 1 + rnd_below (ncust));
      sqlite3_bind_int (io, 2, 1 + rnd_below (nprod));
      sqlite3_bind_int (io, 3, 1 + rnd_below (9));
      sqlite3_bind_int (io, 4, rnd_below (365));
      if (rnd_below (4) == 0)
	sqlite3_bind_null (io, 5);
      else
	{
	  make_word (note, 1 + rnd_below (6));
	  sqlite3_bind_text (io, 5, note, -1, SQLITE_TRANSIENT);
	}
      if (sqlite3_step (io) != SQLITE_DONE)
	die ("insert order");
      sqlite3_reset (io);
    }
  sqlite3_finalize (io);
  exec ("COMMIT");

  exec ("CREATE INDEX orders_cust ON orders(cust)");
  exec ("CREATE INDEX orders_prod_day ON orders(prod, day)");
  exec ("CREATE INDEX customer_city ON customer(city, age)");
  exec ("ANALYZE");
}

enum { Q_POINT, Q_JOIN, Q_AGG, Q_LIKE, Q_RANGE, Q_SUBQ, Q_UPDATE, Q_DELETE,
       Q_KINDS };

/* Weights of the query kinds, per mix.  */
static const int weights[2][Q_KINDS] = {
  /* point join agg like range subq update delete */
  { 40, 10, 4, 6, 10, 3, 12, 3 },	/* training */
  { 25, 14, 7, 3, 14, 5, 6, 6 },	/* evaluation */
};

static void
queries (int rows, int nq, int mix)
{
  int ncust = rows / 8 + 1, nprod = rows / 32 + 16;
  int total = 0;
  for (int k = 0; k < Q_KINDS; k++)
    total += weights[mix][k];

  /* One statement per kind: the SQL texts are alike in shape only.  */
  sqlite3_stmt *q[Q_KINDS];
  q[Q_POINT] = prep ("SELECT c.name, c.city, count(o.id), sum(o.qty) "
		     "FROM customer c LEFT JOIN orders o ON o.cust = c.id "
		     "WHERE c.id = ?1 GROUP BY c.id");
  q[Q_JOIN] = prep ("SELECT p.category, c.city, sum(o.qty * p.price) AS rev, "
		    "count(*) FROM orders o JOIN product p ON p.id = o.prod "
		    "JOIN customer c ON c.id = o.cust WHERE o.day BETWEEN ?1 "
		    "AND ?1 + 6 GROUP BY 1, 2 ORDER BY rev DESC LIMIT 10");
  q[Q_AGG] = prep ("SELECT city, count(*), avg(age), max(balance), "
		   "min(balance), total(balance) FROM customer "
		   "WHERE age >= ?1 GROUP BY city HAVING count(*) > 1 "
		   "ORDER BY city");
  q[Q_LIKE] = prep ("SELECT count(*), sum(length(note)) FROM orders "
		    "WHERE note LIKE ?1");
  q[Q_RANGE] = prep ("SELECT o.id, o.qty, o.day, upper(p.name) FROM orders o "
		     "JOIN product p ON p.id = o.prod WHERE o.prod = ?1 "
		     "AND o.day BETWEEN ?2 AND ?2 + 40 ORDER BY o.day, o.id");
  q[Q_SUBQ] = prep ("SELECT name, balance FROM customer WHERE balance > "
		    "(SELECT avg(balance) FROM customer WHERE city = ?1) "
		    "AND city = ?1 AND id IN (SELECT cust FROM orders "
		    "WHERE qty > ?2) ORDER BY balance DESC LIMIT 5");
  q[Q_UPDATE] = prep ("UPDATE customer SET balance = balance + "
		      "(SELECT coalesce(sum(qty), 0) FROM orders "
		      "WHERE cust = ?1) WHERE id = ?1");
  q[Q_DELETE] = prep ("DELETE FROM orders WHERE cust = ?1 AND day < ?2");

  static const char *const like_train[] = { "%ka%", "mi%", "%dor", "%ne_o%" };
  static const char *const like_eval[] = { "%qu%", "fin%", "%sa", "%r_ti%" };

  exec ("BEGIN");
  for (int i = 0; i < nq; i++)
    {
      int r = rnd_below (total), k = 0;
      while (r >= weights[mix][k])
	r -= weights[mix][k++];
      sqlite3_stmt *st = q[k];
      switch (k)
	{
	case Q_POINT:
	case Q_UPDATE:
	  sqlite3_bind_int (st, 1, 1 + rnd_below (ncust));
	  break;
	case Q_JOIN:
	  sqlite3_bind_int (st, 1, rnd_below (360));
	  break;
	case Q_AGG:
	  sqlite3_bind_int (st, 1, 18 + rnd_below (60));
	  break;
	case Q_LIKE:
	  sqlite3_bind_text (st, 1, (mix ? like_eval : like_train)[rnd_below (4)],
			     -1, SQLITE_STATIC);
	  break;
	case Q_RANGE:
	  sqlite3_bind_int (st, 1, 1 + rnd_below (nprod));
	  sqlite3_bind_int (st, 2, rnd_below (330));
	  break;
	case Q_SUBQ:
	  sqlite3_bind_text (st, 1, cities[rnd_below (16)], -1, SQLITE_STATIC);
	  sqlite3_bind_int (st, 2, 1 + rnd_below (8));
	  break;
	case Q_DELETE:
	  sqlite3_bind_int (st, 1, 1 + rnd_below (ncust));
	  sqlite3_bind_int (st, 2, rnd_below (120));
	  break;
	}
      drain (st);
      if (k == Q_UPDATE || k == Q_DELETE)
	mix_u64 ((uint64_t) sqlite3_changes (db));
      if (i % 512 == 511)
	{
	  exec ("COMMIT");
	  exec ("BEGIN");
	}
    }
  exec ("COMMIT");
  for (int k = 0; k < Q_KINDS; k++)
    sqlite3_finalize (q[k]);

  /* A final whole-table pass: the totals depend on every update and
     delete above.  */
  sqlite3_stmt *fin = prep ("SELECT count(*), total(balance) FROM customer "
			    "UNION ALL SELECT count(*), total(qty) FROM orders");
  drain (fin);
  sqlite3_finalize (fin);
}

int
main (int argc, char **argv)
{
  if (argc != 5)
    {
      fprintf (stderr, "usage: sqlite_bench SEED ROWS QUERIES MIX\n");
      return 2;
    }
  rng_state = strtoull (argv[1], 0, 0) * 0x9E3779B97F4A7C15ULL + 1;
  int rows = atoi (argv[2]);
  int nq = atoi (argv[3]);
  int mix = atoi (argv[4]) ? 1 : 0;
  if (rows < 16)
    rows = 16;

  if (sqlite3_open (":memory:", &db) != SQLITE_OK)
    die ("open");
  exec ("PRAGMA cache_size = -65536");
  load (rows);
  queries (rows, nq, mix);
  sqlite3_close (db);
  printf ("sqlite_bench seed=%s rows=%d queries=%d mix=%d checksum=%016llx\n",
	  argv[1], rows, nq, mix, (unsigned long long) checksum);
  return 0;
}
