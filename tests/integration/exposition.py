# SPDX-License-Identifier: GPL-2.0-or-later
"""Metrics as their consumers read them: python3-prometheus-client's parsers, and the
series they give (test_metrics.py, test_hosts.py)."""
import sys

from tvtest import Skip, check


def parsers():
    """python3-prometheus-client's OpenMetrics and text-format parsers."""
    try:
        import prometheus_client  # noqa: F401
    except ImportError:
        # Debian's package installs for the system's python3; a python3 first
        # in PATH (pyenv, a virtualenv) does not see it by itself
        sys.path.append("/usr/lib/python3/dist-packages")
    try:
        from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
        from prometheus_client.parser import text_string_to_metric_families as text
    except ImportError:
        raise Skip("python3-prometheus-client is not installed")
    return om, text


def series(families):
    """{(sample name, sorted labels): value}; a series twice is an error."""
    out = {}
    for f in families:
        for s in f.samples:
            check(s.timestamp is None, f"{s.name}: a timestamp (the textfile collector refuses them)")
            key = (s.name, tuple(sorted(s.labels.items())))
            check(key not in out, f"series {key} twice")
            out[key] = s.value
    return out


def parse_om(text):
    om, _ = parsers()
    check(text.endswith("# EOF\n"), "an exposition ends in # EOF")
    return series(list(om(text)))


def parse_text(text):
    _, tp = parsers()
    check("# EOF" not in text and "# UNIT" not in text, "the text format has no # EOF or # UNIT")
    return series(list(tp(text)))


def value(m, name, **labels):
    return m.get((name, tuple(sorted(labels.items()))))


def where(m, name):
    """The series of one name: {labels dict as tuple: value}."""
    return {k[1]: v for k, v in m.items() if k[0] == name}
