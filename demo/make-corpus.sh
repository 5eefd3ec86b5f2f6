#!/bin/sh
# make-corpus.sh: write a deterministic pseudo-English text for the demo.
#
#   demo/make-corpus.sh SEED WORDS > FILE
#
# Words come from a vocabulary of 5000 made-up words with a skewed
# (roughly Zipf) frequency, plus common English words, capitals,
# punctuation, numbers, apostrophes, and a few UTF-8 and overlong words,
# so that wordfreq's hot and cold paths both occur.  The same SEED and
# WORDS give the same text on every machine: the generator is a
# Park-Miller LCG computed exactly in awk's doubles, not awk's rand().

seed=${1:-1}
words=${2:-200000}

exec awk -v seed="$seed" -v words="$words" '
function rnd() {
  state = (state * 16807) % 2147483647
  return state / 2147483647
}
function make_word(i,    w, n, k) {
  w = ""
  n = 2 + i % 2 + (i % 5 == 0)
  for (k = 0; k < n; k++) {
    w = w syl[1 + i % nsyl]
    i = int(i / nsyl) + k + 1
  }
  return w
}
BEGIN {
  state = seed % 2147483646 + 1
  nsyl = split("ka lo mi ne ru sa te vi do pe la mo ri su ta no be gi fu ha", syl, " ")
  ncommon = split("the of and to in a is that it was for on are as with his they at be this from have or by", common, " ")
  nvocab = 5000
  for (i = 0; i < nvocab; i++)
    vocab[i] = make_word(i)
  col = 0
  for (n = 0; n < words; n++) {
    r = rnd()
    if (r < 0.30)
      w = common[1 + int(rnd() * ncommon)]
    else if (r < 0.99)
      w = vocab[int(exp(rnd() * log(nvocab))) - 1]
    else if (r < 0.998)
      w = int(rnd() * 100000)
    else if (r < 0.9995)
      w = "caf\303\251-" vocab[int(rnd() * 50)]
    else
      w = vocab[1] vocab[2] vocab[3] vocab[4] vocab[5] vocab[6] vocab[7] vocab[8] vocab[9] vocab[10] vocab[11] vocab[12] vocab[13] vocab[14] vocab[15] vocab[16] vocab[17] vocab[18] vocab[19]
    r = rnd()
    if (r < 0.05)
      w = toupper(substr(w, 1, 1)) substr(w, 2)
    else if (r < 0.07)
      w = w "'"'"'s"
    r = rnd()
    if (r < 0.06)
      w = w ","
    else if (r < 0.10)
      w = w "."
    printf "%s", w
    col++
    if (col >= 12 && rnd() < 0.3) {
      printf "\n"
      col = 0
    } else
      printf " "
  }
  printf "\n"
}'
