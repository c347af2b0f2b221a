"""What Tests/scripts/bench.sh's handover tables share: reading the rounds' measurements and
summing them up as medians with quartiles."""
import json
import os
import statistics


def runs(folder, name):
    """The lines of results/handover-NAME (one JSON object a round, in order); none when absent."""
    path = os.path.join(folder, "handover-" + name)
    return [json.loads(line) for line in open(path)] if os.path.exists(path) else []


def median(lines, key):
    return statistics.median(line[key] for line in lines)


def ratios(lines, key, floors, floor_key):
    """herald ÷ floor in each round: the files hold one line per round, in order."""
    return [line[key] / floor[floor_key] for line, floor in zip(lines, floors)]


def with_quartiles(values):
    text = "%.2f" % statistics.median(values)
    if len(values) >= 3:
        low, _, high = statistics.quantiles(values, n=4, method="inclusive")
        text += " [%.2f–%.2f]" % (low, high)
    return text
