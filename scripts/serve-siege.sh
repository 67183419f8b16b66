#!/bin/bash
# Besieges `replay serve` with Debian's slowhttptest (apt-get install slowhttptest) under a
# descriptor limit of 256 (a Mac's default) and times a normal request every 0.25 s meanwhile
# (docs/BENCHMARKS.md, "`replay serve` under siege").
#
# usage: scripts/serve-siege.sh REPLAY JOURNAL [PORT]   (reports go to ./siege-out)
set -u
REPLAY=$1 JOURNAL=$2 PORT=${3:-18080}
mkdir -p siege-out && cd siege-out || exit 1
bash -c "ulimit -n 256; exec $REPLAY serve --port $PORT $JOURNAL" > serve.log 2>&1 &
SERVE=$!
trap 'kill $SERVE 2>/dev/null' EXIT
sleep 1
URL=http://127.0.0.1:$PORT/j/0/
curl -s -o /dev/null -w "first page %{http_code} %{time_total}s\n" --max-time 30 "$URL"
# 1,000 connections trickling header lines every 5 s; 1,000 trickling a POST body; 100 that read
# their answer a byte at a time.
slowhttptest -c 1000 -H -i 5 -r 250 -t GET -u "$URL" -x 24 -p 3 -l 40 > slowloris.out 2>&1 &
L=$!
slowhttptest -c 1000 -B -i 5 -r 250 -s 8192 -t POST -u "$URL" -x 10 -p 3 -l 40 > slowbody.out 2>&1 &
B=$!
slowhttptest -c 100 -X -r 100 -w 1 -y 2 -n 5 -z 1 -k 3 -u "$URL" -p 3 -l 40 > slowread.out 2>&1 &
R=$!
sleep 2
(sleep 4; echo "mid-siege: $(ls /proc/$SERVE/fd | wc -l) descriptors, $(ls /proc/$SERVE/task | wc -l) threads") &
for _ in $(seq 1 60); do
  curl -s -o /dev/null -w "%{http_code} %{time_total}\n" --max-time 10 "http://127.0.0.1:$PORT/j/0/state?at=5" || echo "no-answer"
  sleep 0.25
done > probes.txt
wait $L $B $R
echo "answers: $(grep -c '^200 ' probes.txt) of $(wc -l < probes.txt)"
awk '$1==200{print $2}' probes.txt | sort -n | awk '{a[NR]=$1} END{if (NR) printf "seconds: median %s, p90 %s, max %s\n", a[int(NR/2)+1], a[int(NR*0.9)], a[NR]}'
for f in slowloris slowbody slowread; do
  echo "$f: $(sed 's/\x1b\[[0-9;]*m//g' $f.out | grep -E 'service available|Exit status' | tail -2 | tr -s ' ' | paste -sd';')"
done
