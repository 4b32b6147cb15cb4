# The floor issue 33 holds `clean --local` to: Python's csv.reader -> csv.writer copy of a file, what a user could
# write in a few lines. Usage: python3 csv-copy.py IN OUT. Prints its peak RSS (bytes) and CPU time (user +
# system, microseconds) on stderr as maxrss=N cpu_us=N.
import csv
import resource
import sys

with open(sys.argv[1], newline="", encoding="utf-8-sig") as src, open(sys.argv[2], "w", newline="", encoding="utf-8") as dst:
    csv.writer(dst).writerows(csv.reader(src))
usage = resource.getrusage(resource.RUSAGE_SELF)
print(f"maxrss={usage.ru_maxrss * 1024} cpu_us={round((usage.ru_utime + usage.ru_stime) * 1e6)}", file=sys.stderr)
