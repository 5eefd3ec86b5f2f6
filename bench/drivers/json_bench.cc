// json_bench.cc: build, serialize, parse and query JSON with nlohmann/json
// (Debian's nlohmann-json3-dev, header only: the work is in many small
// inline template functions).
//
// Usage: json_bench SEED DOCS MIX
//   SEED  seed of the document generator
//   DOCS  number of documents
//   MIX   0 = training mix, 1 = evaluation mix (other document shapes,
//         other share of pretty printing, patching and queries)
//
// Prints a checksum of everything serialized and queried.

#include <nlohmann/json.hpp>

#include "driver-util.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

void
mix (const std::string &s)
{
  for (unsigned char c : s)
    mix (c);
  mix (s.size ());
}

const char *const keys[] = { "id", "name", "tags", "price", "stock", "ratings",
			     "vendor", "dims", "active", "notes", "created",
			     "history", "options", "parent", "score", "ünïcode" };

std::string
word (Rng &r)
{
  static const char *const syl[] = { "ka", "lo", "mi", "ne", "ru", "sa", "ti",
				     "vo", "ze", "bar", "qu", "dor" };
  std::string w;
  int n = 1 + r.below (4);
  for (int i = 0; i < n; i++)
    w += syl[r.below (12)];
  // Some strings need escaping when serialized.
  switch (r.below (16))
    {
    case 0: w += "\n"; break;
    case 1: w += "\"q\""; break;
    case 2: w += "\\"; break;
    case 3: w += "\xc3\xa9"; break;  // é
    case 4: w += "\t"; break;
    default: break;
    }
  return w;
}

json
make_value (Rng &r, int depth, int m)
{
  int k = r.below (depth > 3 ? 6 : (m ? 10 : 9));
  switch (k)
    {
    case 0: return r.below (2) == 0;
    case 1: return r.below (1000000) - 500000;
    case 2: return r.below (1000000) / 128.0;
    case 3:
    case 4: return word (r);
    case 5: return nullptr;
    case 6:
    case 7:
      {
	json a = json::array ();
	int n = r.below (m ? 12 : 6);
	for (int i = 0; i < n; i++)
	  a.push_back (make_value (r, depth + 1, m));
	return a;
      }
    default:
      {
	json o = json::object ();
	int n = 1 + r.below (m ? 8 : 5);
	for (int i = 0; i < n; i++)
	  o[keys[r.below (16)]] = make_value (r, depth + 1, m);
	return o;
      }
    }
}

json
make_doc (Rng &r, int i, int m)
{
  json d;
  d["id"] = i;
  d["name"] = word (r);
  d["price"] = r.below (100000) / 100.0;
  d["active"] = r.below (3) != 0;
  json tags = json::array ();
  for (int t = r.below (5); t > 0; t--)
    tags.push_back (word (r));
  d["tags"] = tags;
  json ratings = json::array ();
  for (int t = r.below (m ? 20 : 10); t > 0; t--)
    ratings.push_back (1 + r.below (5));
  d["ratings"] = ratings;
  d["extra"] = make_value (r, 0, m);
  return d;
}

// Walk V and fold the scalars into the checksum; count nodes.
long
walk (const json &v)
{
  long n = 1;
  switch (v.type ())
    {
    case json::value_t::object:
      for (auto it = v.begin (); it != v.end (); ++it)
	{
	  mix (it.key ());
	  n += walk (it.value ());
	}
      break;
    case json::value_t::array:
      for (const auto &e : v)
	n += walk (e);
      break;
    case json::value_t::string:
      mix (v.get_ref<const std::string &> ());
      break;
    case json::value_t::boolean:
      mix (v.get<bool> () ? 3 : 5);
      break;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      mix (static_cast<std::uint64_t> (v.get<std::int64_t> ()));
      break;
    case json::value_t::number_float:
      mix (static_cast<std::uint64_t> (static_cast<std::int64_t> (v.get<double> () * 100)));
      break;
    default:
      mix (11);
    }
  return n;
}

} // namespace

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      std::fprintf (stderr, "usage: json_bench SEED DOCS MIX\n");
      return 2;
    }
  Rng r{ std::strtoull (argv[1], nullptr, 0) * 0x9E3779B97F4A7C15ULL + 1 };
  int docs = std::atoi (argv[2]);
  int m = std::atoi (argv[3]) ? 1 : 0;

  // Build documents and serialize them, some pretty printed.
  std::vector<std::string> texts;
  texts.reserve (docs);
  for (int i = 0; i < docs; i++)
    {
      json d = make_doc (r, i, m);
      bool pretty = r.below (m ? 3 : 8) == 0;
      texts.push_back (pretty ? d.dump (2) : d.dump ());
    }

  // Parse them back into one catalogue and query it.
  json catalogue = json::array ();
  long nodes = 0;
  for (const auto &t : texts)
    {
      json d = json::parse (t);
      nodes += walk (d);
      catalogue.push_back (std::move (d));
    }

  double revenue = 0;
  long active = 0, rated = 0;
  for (const auto &d : catalogue)
    {
      if (d.value ("active", false))
	active++;
      const auto &ra = d.at ("ratings");
      if (!ra.empty ())
	{
	  long s = 0;
	  for (const auto &x : ra)
	    s += x.get<long> ();
	  rated++;
	  revenue += d["price"].get<double> () * static_cast<double> (s) / static_cast<double> (ra.size ());
	}
      if (d.contains ("extra") && d["extra"].is_object ())
	{
	  const auto &e = d["extra"];
	  for (const char *k : keys)
	    if (e.contains (k))
	      mix (e[k].type () == json::value_t::string ? 1u : 2u);
	}
    }

  // Patch: modify a share of documents through JSON pointers and merge
  // patches, then dump the whole catalogue again.
  int every = m ? 3 : 7;
  for (std::size_t i = 0; i < catalogue.size (); i += static_cast<std::size_t> (every))
    {
      json &d = catalogue[i];
      d["/stock"_json_pointer] = r.below (500);
      json patch = { { "price", r.below (1000) }, { "tags", nullptr },
		     { "notes", { { "by", word (r) }, { "at", r.below (100000) } } } };
      d.merge_patch (patch);
    }
  std::string all = catalogue.dump ();
  mix (all);
  json again = json::parse (all);
  mix (again == catalogue ? 1u : 0u);
  std::vector<std::uint8_t> cbor = json::to_cbor (again);
  mix (cbor.size ());
  json fromcbor = json::from_cbor (cbor);
  mix (fromcbor.size ());

  std::printf ("json_bench seed=%s docs=%d mix=%d nodes=%ld active=%ld rated=%ld "
	       "revenue=%.0f checksum=%016llx\n",
	       argv[1], docs, m, nodes, active, rated, revenue,
	       static_cast<unsigned long long> (checksum));
  return 0;
}
