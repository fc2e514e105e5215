"""What this process did that the caches exist to save, counted for tests and benchmarks.

The pipeline only appends to :data:`STATS`; nothing reads it to decide a byte. A test takes
a :meth:`WorkStats.mark` before an action and reads what was added since.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class WorkStats:
    black_runs: list[str] = field(default_factory=list)  # every text black formatted
    sent_to_black: list[str] = field(default_factory=list)  # every whole file handed to black
    memo_hits: list[str] = field(default_factory=list)  # tree-memo keys answered from the cache

    def mark(self) -> WorkStats:
        """A copy of the counts so far, for :meth:`since`."""
        return WorkStats(list(self.black_runs), list(self.sent_to_black), list(self.memo_hits))

    def since(self, mark: WorkStats) -> WorkStats:
        """What was added after ``mark`` was taken."""
        return WorkStats(self.black_runs[len(mark.black_runs):],
                         self.sent_to_black[len(mark.sent_to_black):],
                         self.memo_hits[len(mark.memo_hits):])


STATS = WorkStats()
