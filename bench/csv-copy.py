# The floor issue 33 holds `clean --local` to: Python's csv.reader -> csv.writer copy of a file, what a user could
# write in a few lines. Usage: python3 csv-copy.py IN OUT. Prints its peak RSS (bytes) on stderr as maxrss=N.
import csv
import resource
import sys

with open(sys.argv[1], newline="", encoding="utf-8-sig") as src, open(sys.argv[2], "w", newline="", encoding="utf-8") as dst:
    csv.writer(dst).writerows(csv.reader(src))
print(f"maxrss={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}", file=sys.stderr)
