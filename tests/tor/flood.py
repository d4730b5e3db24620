#!/usr/bin/env python3
# Copyright (c) 2026 The equix authors
# SPDX-License-Identifier: BSD-3-Clause
"""The load of tests/tor/flood.sh: legitimate clients and an attacker,
each a stream of fresh connections to one onion service through a tor
client's SOCKS port, and a poll of the service's MetricsPort.

    flood.py load OPTIONS      (the load, see --help)
    flood.py measure OPTIONS   (the simulator's inputs, see --help)
    flood.py report OPTIONS    (the tables, see --help)

Every connection has a SOCKS user name of its own, so that tor (which
isolates streams by SOCKS credentials by default) builds new circuits and
sends a new introduction for it. Arrivals are Poisson, as in
`equix-cli pow simulate`. One process, one event loop: a few hundred
open connections cost little, where as many curl processes would not.

A legitimate client keeps trying (a new SOCKS connection when tor gives
up on one) until its patience is used up, as the simulator's client does
and a person reloading a page would; its time to connect is from its
first attempt to the first byte of the page. An attacker's connection is
one attempt, abandoned after --attack-timeout; it counts as served when
the page arrives. Writes one CSV row per client or attack connection
(when it ends, in that order) and one per metrics poll.
"""

import argparse
import asyncio
import csv
import random
import re
import sys
import time

# Tor's SOCKS5 replies for onion services (tor's doc/socks-extensions):
# the name of each failure in the events file.
SOCKS_REPLIES = {
    0x01: "general-failure", 0x04: "host-unreachable", 0x05: "refused",
    0x06: "ttl-expired", 0xF0: "onion-desc-not-found",
    0xF1: "onion-desc-invalid", 0xF2: "onion-intro-failed",
    0xF3: "onion-rend-failed", 0xF4: "onion-missing-auth",
    0xF5: "onion-wrong-auth", 0xF6: "onion-bad-address",
    0xF7: "onion-intro-timeout",
}


class Failure(Exception):
    """An attempt that ended without the page, with a short reason."""


async def fetch(socks_port, user, onion, token):
    """One connection: SOCKS5 with user name and password, CONNECT to
    onion:80 by name, GET /index.txt. Returns the time of the first byte
    of the answer; raises Failure when the page does not arrive whole."""
    reader, writer = await asyncio.open_connection("127.0.0.1", socks_port)
    try:
        writer.write(b"\x05\x01\x02")
        if await reader.readexactly(2) != b"\x05\x02":
            raise Failure("socks-method")
        u = user.encode()
        writer.write(b"\x01" + bytes([len(u)]) + u + b"\x01x")
        if (await reader.readexactly(2))[1] != 0:
            raise Failure("socks-auth")
        host = onion.encode()
        writer.write(b"\x05\x01\x00\x03" + bytes([len(host)]) + host +
                     (80).to_bytes(2, "big"))
        head = await reader.readexactly(4)
        if head[1] != 0:
            raise Failure(SOCKS_REPLIES.get(head[1], "socks-%02x" % head[1]))
        atyp = head[3]
        alen = {1: 4, 4: 16}.get(atyp)
        if alen is None:
            alen = (await reader.readexactly(1))[0]
        await reader.readexactly(alen + 2)
        writer.write(b"GET /index.txt HTTP/1.0\r\nHost: " + host +
                     b"\r\n\r\n")
        first = await reader.read(1)
        if not first:
            raise Failure("http-closed")
        t_first = time.time()
        rest = await reader.read()
        if token.encode() not in first + rest:
            raise Failure("http-no-token")
        return t_first
    except (asyncio.IncompleteReadError, ConnectionError) as e:
        raise Failure(type(e).__name__) from e
    finally:
        writer.close()


class Load:
    def __init__(self, args):
        self.a = args
        self.rng = random.Random(args.seed)
        self.out = None
        self.open_attacks = 0
        self.tasks = set()
        self.serial = {"legit": 0, "attack": 0}

    def row(self, *fields):
        self.out.writerow(fields)
        self.outf.flush()

    def spawn(self, coro):
        t = asyncio.ensure_future(coro)
        self.tasks.add(t)
        t.add_done_callback(self.tasks.discard)

    def user(self, cls):
        self.serial[cls] += 1
        return "%s-%d-%d" % (cls, self.a.seed, self.serial[cls])

    async def legit(self):
        a = self.a
        start = time.time()
        attempts = 0
        outcome = "timeout"
        t_conn = None
        while True:
            left = start + a.patience - time.time()
            if left <= 0:
                break
            attempts += 1
            try:
                t_conn = await asyncio.wait_for(
                    fetch(a.legit_socks, self.user("legit"), a.onion, a.token),
                    left)
                outcome = "ok"
                break
            except asyncio.TimeoutError:
                outcome = "timeout"
                break
            except (Failure, OSError) as e:
                outcome = str(e) or type(e).__name__
                await asyncio.sleep(min(1.0, max(0.0, left - 1)))
        self.row("legit", "%.3f" % start, "%.3f" % time.time(), outcome,
                 attempts, "%.3f" % (t_conn - start) if t_conn else "")

    async def attack(self):
        a = self.a
        start = time.time()
        self.open_attacks += 1
        t_conn = None
        try:
            t_conn = await asyncio.wait_for(
                fetch(a.attack_socks, self.user("attack"), a.onion, a.token),
                a.attack_timeout)
            outcome = "ok"
        except asyncio.TimeoutError:
            outcome = "timeout"
        except (Failure, OSError) as e:
            outcome = str(e) or type(e).__name__
        finally:
            self.open_attacks -= 1
        self.row("attack", "%.3f" % start, "%.3f" % time.time(), outcome, 1,
                 "%.3f" % (t_conn - start) if t_conn else "")

    async def arrivals(self, cls, rate, end):
        """Poisson arrivals at RATE a second until END."""
        if rate <= 0:
            return
        t = time.time()
        while True:
            t += self.rng.expovariate(rate)
            if t >= end:
                return
            await asyncio.sleep(max(0.0, t - time.time()))
            if cls == "legit":
                self.spawn(self.legit())
            elif self.open_attacks >= self.a.attack_max_open:
                # Not sent: counted, so that a run that hit the cap says so.
                now = "%.3f" % time.time()
                self.row("attack", now, now, "not-sent-cap", 0, "")
            else:
                self.spawn(self.attack())

    async def metrics(self, end, out):
        """The service's suggested effort and queue length every
        --metrics-every seconds, from its MetricsPort."""
        names = ("pow_suggested_effort", "rdv_pow_pqueue_count",
                 "intro_num_total", "rdv_established_count")
        pat = re.compile(r'^tor_hs_(%s)\{[^}]*\}\s+([0-9.e+]+)$' % "|".join(names),
                         re.M)
        w = csv.writer(out)
        w.writerow(("t",) + names)
        while time.time() < end + self.a.metrics_every:
            vals = {}
            try:
                r, wr = await asyncio.wait_for(asyncio.open_connection(
                    "127.0.0.1", self.a.metrics_port), 5)
                # Tor keeps the connection open after its answer: read
                # the headers, then Content-Length bytes.
                wr.write(b"GET /metrics HTTP/1.0\r\n\r\n")
                head = await asyncio.wait_for(r.readuntil(b"\r\n\r\n"), 5)
                n = re.search(rb"Content-Length: *([0-9]+)", head, re.I)
                body = (await asyncio.wait_for(
                    r.readexactly(int(n.group(1)) if n else 0), 5)
                ).decode("ascii", "replace")
                wr.close()
                for m in pat.finditer(body):
                    vals[m.group(1)] = int(float(m.group(2)))
            except (OSError, asyncio.TimeoutError,
                    asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                pass
            w.writerow(["%.3f" % time.time()] + [vals.get(k, "") for k in names])
            out.flush()
            await asyncio.sleep(self.a.metrics_every)

    async def calibrate(self):
        """--calibrate N: N legitimate clients one after the other, with no
        other load: the time to connect when nothing waits."""
        for _ in range(self.a.calibrate):
            await self.legit()

    async def run(self):
        a = self.a
        end = a.until
        with open(a.metrics, "w", newline="") as mout, \
                open(a.events, "w", newline="") as self.outf:
            self.out = csv.writer(self.outf)
            self.row("class", "start", "end", "outcome", "attempts",
                     "connect_s")
            mtask = asyncio.ensure_future(self.metrics(end + a.patience, mout))
            await self.calibrate()
            await asyncio.gather(self.arrivals("legit", a.legit_rate, end),
                                 self.arrivals("attack", a.attack_rate, end))
            # Connections still open finish or time out (bounded by the
            # patience and the attack timeout).
            while self.tasks:
                await asyncio.wait(list(self.tasks))
            mtask.cancel()


# ---- report ----------------------------------------------------------

TOR_TIME = re.compile(r"^(\w{3} \d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?) ")


def tor_time(line, year):
    """Seconds since 1970 of a tor log line's time stamp (local time, as
    tor writes it; the year is not in the line)."""
    m = TOR_TIME.match(line)
    if not m:
        return None
    stamp = m.group(1)
    frac = 0.0
    if "." in stamp:
        stamp, f = stamp.split(".")
        frac = float("0." + f)
    return time.mktime(time.strptime("%d %s" % (year, stamp),
                                     "%Y %b %d %H:%M:%S")) + frac


def quantile(values, q):
    """Nearest rank, as the simulator's (the smallest value with at least
    q of them at or below it)."""
    if not values:
        return None
    v = sorted(values)
    return v[max(1, -(-int(q * len(v) * 1000000) // 1000000)) - 1]


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


SERVICE_WORDS = ("Enqueued rendezvous", "Dequeued pending", "While trimming",
                 "reached capacity", "Suggested effort changed")


def service_counts(path, year, t0, periods):
    """Per period, from the service's info log: requests queued and
    launched by effort (0 or above), expired (dequeued too old, or met
    too old in a trim), trims, and republications."""
    per = [dict(queued0=0, queued1=0, launched0=0, launched1=0, expired=0,
                trims=0, republished=0) for _ in range(periods + 1)]
    last_republish = None
    pending = None  # a dequeued request: launched unless the next line drops it

    def period_of(t):
        k = int((t - t0) // 300)
        return min(max(k, 0), periods)

    with open(path, errors="replace") as f:
        for line in f:
            if pending is not None:
                k, e = pending
                pending = None
                if "pending for too long; discarding and moving" in line:
                    per[k]["expired"] += 1
                else:
                    per[k]["launched0" if e == 0 else "launched1"] += 1
            if not any(w in line for w in SERVICE_WORDS):
                continue
            t = tor_time(line, year)
            if t is None:
                continue
            k = period_of(t)
            m = re.search(r"Enqueued rendezvous request with effort: (\d+)",
                          line)
            if m:
                per[k]["queued0" if m.group(1) == "0" else "queued1"] += 1
                continue
            m = re.search(r"Dequeued pending rendezvous request with "
                          r"effort: (\d+)", line)
            if m:
                pending = (k, int(m.group(1)))
                continue
            if "While trimming, rend request has been pending" in line:
                per[k]["expired"] += 1
            elif "reached capacity" in line:
                per[k]["trims"] += 1
            elif "Suggested effort changed significantly" in line:
                # One line per descriptor (this time period's and the
                # next's): count the updates, by time stamp. An update
                # comes within a second or two of its period's end.
                if line[:19] != last_republish:
                    per[period_of(t - 2)]["republished"] += 1
                last_republish = line[:19]
    return per


def client_efforts(path, year, t0, periods):
    """Per period, the efforts the legitimate clients' tor solved at
    ("Solving proof of work (effort N)"), as {effort: count}, and the
    times of the solves at each effort, {effort: [time, ...]}."""
    per = [dict() for _ in range(periods + 1)]
    times = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"Solving proof of work \(effort (\d+)\)", line)
            if not m:
                continue
            t = tor_time(line, year)
            e = int(m.group(1))
            k = min(max(int((t - t0) // 300), 0), periods)
            per[k][e] = per[k].get(e, 0) + 1
            times.setdefault(e, []).append(t)
    return per, times


def effort_after(metrics, t):
    """The service's suggested effort at the first poll at or after t."""
    for r in metrics:
        if float(r["t"]) >= t and r["pow_suggested_effort"] != "":
            return int(r["pow_suggested_effort"])
    return None


def fmt(x, unit=""):
    if x is None:
        return "-"
    if isinstance(x, float):
        return "%.2f%s" % (x, unit)
    return "%s%s" % (x, unit)


def share(n, d):
    return "%.1f%% (%d/%d)" % (100.0 * n / d, n, d) if d else "-"


def report(a):
    events = read_csv(a.events)
    metrics = read_csv(a.metrics)
    year = time.localtime(a.t0).tm_year
    P = a.periods
    svc = service_counts(a.service_log, year, a.t0, P)
    seen, _ = client_efforts(a.legit_log, year, a.t0, P)
    sim = {}
    sim_classes = {}
    if a.sim_csv:
        with open(a.sim_csv, newline="") as f:
            text = f.read().split("\n\n")
        for r in csv.DictReader(text[0].splitlines()):
            if r["series"] == "period":
                sim[int(round(float(r["t_s"]) / a.period))] = r
        for r in csv.DictReader(text[1].strip().splitlines()):
            sim_classes[r["class"]] = r

    # The simulator's time to connect is per class over a whole run: the
    # runs stopped at each period's end (the same seed and scenario give
    # the same history up to there) give, per period, the clients
    # connected by then, compared with the network's clients connected by
    # the same time.
    sim_cum = {}
    for spec in a.sim_cum or []:
        secs, path = spec.split(":", 1)
        with open(path, newline="") as f:
            text = f.read().split("\n\n")
        for r in csv.DictReader(text[1].strip().splitlines()):
            if r["class"] == "legit":
                sim_cum[int(round(float(secs) / a.period))] = r

    rows = []
    for k in range(1, P + 1):
        lo, hi = a.t0 + a.period * (k - 1), a.t0 + a.period * k
        inp = [e for e in events if lo <= float(e["start"]) < hi]
        leg = [e for e in inp if e["class"] == "legit"]
        att = [e for e in inp if e["class"] == "attack"]
        ok = [float(e["connect_s"]) for e in leg if e["outcome"] == "ok"]
        aok = sum(1 for e in att if e["outcome"] == "ok")
        asent = sum(1 for e in att if e["outcome"] != "not-sent-cap")
        by_end = [float(e["connect_s"]) for e in events
                  if e["class"] == "legit" and e["outcome"] == "ok"
                  and float(e["start"]) + float(e["connect_s"]) <= hi]
        sc = sim_cum.get(k, {})
        s = sim.get(k, {})
        sprev = sim.get(k - 1, {})
        svk = svc[k - 1]  # log periods are 0-based
        rows.append(dict(
            period=k,
            effort_in_force=effort_after(metrics, lo + 1) if k > 1 else 0,
            effort_set=effort_after(metrics, hi + 1),
            sim_effort_in_force=int(sprev["suggested"]) if sprev else 0,
            sim_effort_set=int(s["suggested"]) if s else None,
            legit_started=len(leg), legit_ok=len(ok),
            legit_p50=quantile(ok, 0.5), legit_p90=quantile(ok, 0.9),
            cum_ok=len(by_end), cum_p50=quantile(by_end, 0.5),
            cum_p90=quantile(by_end, 0.9),
            sim_cum_ok=int(sc["succeeded"]) if sc else None,
            sim_cum_p50=float(sc["p50_s"]) if sc else None,
            sim_cum_p90=float(sc["p90_s"]) if sc else None,
            legit_solved=" ".join("%d:%d" % kv
                                  for kv in sorted(seen[k - 1].items())),
            sim_legit_served=int(s["served_legit"]) if s else None,
            sim_legit_arrivals=int(s["arrivals_legit"]) if s else None,
            attack_sent=asent, attack_ok=aok,
            sim_attack_served=int(s["served_attack"]) if s else None,
            sim_attack_arrivals=int(s["arrivals_attack"]) if s else None,
            **{"svc_" + x: y for x, y in svk.items()}))

    with open(a.out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)

    out = []
    out.append("| period | suggested effort in force, real / sim | "
               "set at the period's end, real / sim | "
               "legit connected by the period's end: count, p50 / p90, real | "
               "the same, sim | attack served, real | attack served, sim |")
    out.append("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        out.append("| %d | %s / %s | %s / %s | %s, %s / %s | %s, %s / %s "
                   "| %s | %s |" % (
            r["period"], fmt(r["effort_in_force"]),
            fmt(r["sim_effort_in_force"]), fmt(r["effort_set"]),
            fmt(r["sim_effort_set"]),
            r["cum_ok"], fmt(r["cum_p50"], " s"), fmt(r["cum_p90"], " s"),
            fmt(r["sim_cum_ok"]), fmt(r["sim_cum_p50"], " s"),
            fmt(r["sim_cum_p90"], " s"),
            share(r["attack_ok"], r["attack_sent"]),
            share(r["sim_attack_served"] or 0, r["sim_attack_arrivals"] or 0)))
    out.append("")
    out.append("The network's legitimate clients by the period they started "
               "in (the simulator gives no such split):")
    out.append("")
    out.append("| period | legit connected | p50 / p90 | solved at "
               "(effort:count) | sim: served / arrivals in the period |")
    out.append("| --- | --- | --- | --- | --- |")
    for r in rows:
        out.append("| %d | %s | %s / %s | %s | %s / %s |" % (
            r["period"], share(r["legit_ok"], r["legit_started"]),
            fmt(r["legit_p50"], " s"), fmt(r["legit_p90"], " s"),
            r["legit_solved"] or "none", fmt(r["sim_legit_served"]),
            fmt(r["sim_legit_arrivals"])))
    legit_all = [e for e in events if e["class"] == "legit"
                 and a.t0 <= float(e["start"]) < a.t0 + a.period * P]
    ok_all = [float(e["connect_s"]) for e in legit_all if e["outcome"] == "ok"]
    att_all = [e for e in events if e["class"] == "attack"
               and e["outcome"] != "not-sent-cap"]
    out.append("")
    out.append("| whole run | legit success | legit p50 | legit p90 | "
               "attack served |")
    out.append("| --- | --- | --- | --- | --- |")
    out.append("| real | %s | %s | %s | %s |" % (
        share(len(ok_all), len(legit_all)), fmt(quantile(ok_all, 0.5), " s"),
        fmt(quantile(ok_all, 0.9), " s"),
        share(sum(1 for e in att_all if e["outcome"] == "ok"), len(att_all))))
    if sim_classes:
        lg, at = sim_classes.get("legit", {}), sim_classes.get("attack", {})
        out.append("| sim | %s | %s s | %s s | %s |" % (
            share(int(lg.get("succeeded", 0)), int(lg.get("started", 0))),
            lg.get("p50_s", "-"), lg.get("p90_s", "-"),
            share(int(at.get("succeeded", 0)), int(at.get("requests", 0)))))
    out.append("")
    out.append("Service side (its info log), per period: requests queued "
               "at effort 0 / above 0, launched at effort 0 / above 0, "
               "expired in the queue, trims:")
    out.append("")
    out.append("| period | queued 0 / >0 | launched 0 / >0 | expired | trims |"
               " republished |")
    out.append("| --- | --- | --- | --- | --- | --- |")
    for r in rows:
        out.append("| %d | %d / %d | %d / %d | %d | %d | %d |" % (
            r["period"], r["svc_queued0"], r["svc_queued1"],
            r["svc_launched0"], r["svc_launched1"], r["svc_expired"],
            r["svc_trims"], r["svc_republished"]))
    text = "\n".join(out) + "\n"
    if a.out_md:
        with open(a.out_md, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def measure(a):
    """The simulator's inputs measured on the network, as shell words:
    REND_S (the median time to connect of the calibration clients: a
    connection when nothing waits), PUBLISH_S (the mean delay from an
    update that changed the suggested effort to the legitimate clients'
    first solve at the new effort; "-" when no change was seen) and
    START_S (the load's first connection, from the service's PoW set-up)."""
    cal = [float(e["connect_s"]) for e in read_csv(a.calibration)
           if e["outcome"] == "ok"]
    metrics = read_csv(a.metrics)
    year = time.localtime(a.t0).tm_year
    _, times = client_efforts(a.legit_log, year, a.t0, a.periods)
    delays = []
    prev = 0
    for r in metrics:
        if r["pow_suggested_effort"] == "":
            continue
        v = int(r["pow_suggested_effort"])
        if v != prev and v > 0:
            mark = a.t0 + a.period * ((float(r["t"]) - a.t0) // a.period)
            seen = [t for t in times.get(v, []) if t >= mark]
            if seen:
                delays.append(min(seen) - mark)
        prev = v
    starts = [float(e["start"]) for e in read_csv(a.events)]
    print("%.3f %s %.0f" % (
        quantile(cal, 0.5) if cal else 0,
        "%.0f" % (sum(delays) / len(delays)) if delays else "-",
        min(starts) - a.t0 if starts else 0))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("load", help="run the load")
    q.add_argument("--onion", required=True)
    q.add_argument("--token", required=True, help="what the page holds")
    q.add_argument("--legit-socks", type=int, required=True)
    q.add_argument("--attack-socks", type=int, required=True)
    q.add_argument("--metrics-port", type=int, required=True)
    q.add_argument("--legit-rate", type=float, required=True)
    q.add_argument("--attack-rate", type=float, required=True)
    q.add_argument("--until", type=float, required=True,
                   help="no arrival from this time on (seconds since 1970)")
    q.add_argument("--patience", type=float, default=90)
    q.add_argument("--attack-timeout", type=float, default=30)
    q.add_argument("--attack-max-open", type=int, default=400)
    q.add_argument("--metrics-every", type=float, default=5)
    q.add_argument("--calibrate", type=int, default=0, metavar="N",
                   help="first N legitimate clients one at a time")
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--events", required=True)
    q.add_argument("--metrics", required=True)
    q = sub.add_parser("report", help="the per-period tables")
    q.add_argument("--events", required=True)
    q.add_argument("--metrics", required=True)
    q.add_argument("--service-log", required=True)
    q.add_argument("--legit-log", required=True)
    q.add_argument("--t0", type=float, required=True,
                   help="the service's PoW set-up (seconds since 1970)")
    q.add_argument("--periods", type=int, required=True)
    q.add_argument("--period", type=float, default=300)
    q.add_argument("--sim-csv")
    q.add_argument("--sim-cum", action="append", metavar="SECONDS:CSV",
                   help="a simulator run stopped at SECONDS (repeatable)")
    q.add_argument("--out-csv", required=True)
    q.add_argument("--out-md", help="the tables (default: standard output)")
    q = sub.add_parser("measure", help="the simulator's measured inputs")
    q.add_argument("--calibration", required=True)
    q.add_argument("--events", required=True)
    q.add_argument("--metrics", required=True)
    q.add_argument("--legit-log", required=True)
    q.add_argument("--t0", type=float, required=True)
    q.add_argument("--periods", type=int, required=True)
    q.add_argument("--period", type=float, default=300)
    args = p.parse_args()
    if args.cmd == "measure":
        return measure(args)
    if args.cmd == "load":
        asyncio.run(Load(args).run())
        return 0
    return report(args)


if __name__ == "__main__":
    sys.exit(main())
