"""The viewer on a 16-user arc1 stream (3,200 instances): time to first paint of the stream strip.

Usage: python benchmarks/viewer.py [--run DIR] [--repeat N]

Without ``--run`` it first plays the 16-user arc1 stream (seed 0, no epilogue) with a learner that
gives up at once into a temporary directory (about a minute on two cores). It then prints the
time to read the run (the catalog), to build its run document and the document's size, and,
in headless Chromium (/usr/bin/chromium, through Playwright), the time from navigation to the
strip's first paint (a ``strip-painted`` performance mark set in the frame after the strip is
drawn) and to the first instance's replay, the median over ``--repeat`` page loads. No trajectory
is read until an instance is shown.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from continual_arc.play.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.stream.users import with_users
from continual_arc.testing import GiveUpLearner
from continual_arc.tracks.registry import get_config
from continual_arc.view.app import ServerThread
from continual_arc.view.catalog import build_catalog
from continual_arc.view.site import Site

CHROMIUM = Path(os.environ.get("CONTINUAL_ARC_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip


def make_run(out: Path) -> Path:
    schedule = build_schedule(with_users(get_config("arc1"), 16), 0, epilogue=False)
    start = time.perf_counter()
    run(GiveUpLearner(), schedule, out)
    seconds = time.perf_counter() - start
    print(f"played the 16-user arc1 stream ({len(schedule.slots)} instances) in {seconds:.0f} s")
    return out


def page_timings(site: Site, repeat: int) -> list[tuple[float, float]] | None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("Playwright is not installed: no time to first paint")
        return None
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing (apt-get install -y chromium): no time to first paint")
        return None
    out = []
    with ServerThread(site) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        for _ in range(repeat):
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(server.url)
            page.wait_for_function(
                "() => performance.getEntriesByName('strip-painted').length > 0", timeout=60_000
            )
            page.wait_for_selector("#replay[data-at='0']", timeout=60_000)
            painted = page.evaluate("performance.getEntriesByName('strip-painted')[0].startTime")
            replayed = page.evaluate("performance.now()")
            columns = page.get_attribute("#strip", "data-columns")
            out.append((painted, replayed))
            page.close()
        browser.close()
    print(f"strip columns drawn: {columns}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, help="a run directory to view (default: play one)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.run or make_run(Path(tmp) / "users16")
        start = time.perf_counter()
        catalog = build_catalog([path])
        read = time.perf_counter() - start
        site = Site(catalog, live=True)
        start = time.perf_counter()
        document = site.document("run/r0")
        built = time.perf_counter() - start
        size = len(json.dumps(document, separators=(",", ":")))
        print(f"read the run ({document['instances']} instances): {1000 * read:.0f} ms")
        print(f"run document with the strip: {1000 * built:.0f} ms, {size / 1024:.0f} KiB")
        timings = page_timings(site, args.repeat)
        if timings:
            paint = statistics.median(t[0] for t in timings)
            replay = statistics.median(t[1] for t in timings)
            print(f"time to first paint of the strip: {paint:.0f} ms (median of {len(timings)} page loads)")
            print(f"time to the first instance's replay: {replay:.0f} ms")


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("viewer", main)
