"""`crew report OUT --html FILE` (solver/experiments/html.py): one self-contained page, rendered in a real
headless browser (Debian's chromium; .ci/run installs it when missing), whose table holds the cells and
whose drill-down commands solve the shown deals again."""

import json
import re
import shlex
import shutil
import subprocess
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from cli.main import main

SWEEP = ["--tasks", "8", "--owners", "dealt,draft", "--players", "4", "--deals", "8", "--jobs", "1"]  # 2 dealt LOSSes


def crew(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


class Page(HTMLParser):
    """The tags, the table's rows and every reference out of the page."""

    def __init__(self, text: str):
        super().__init__()
        self.tags, self.rows, self.outside, self.scripts = [], 0, [], 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.rows += tag == "tr"
        self.scripts += tag == "script"
        self.outside += [value for name, value in attrs if name in ("src", "href") and value]
        if tag == "link":
            self.outside.append("a <link>")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "sweep"
    crew("sweep", *SWEEP, "--out", out)
    target = out / "report.html"
    done = crew("report", out, "--html", target)
    assert f"wrote {target}" in done.stderr
    return out, target, target.read_text()


def test_the_page_is_self_contained(report):
    _, _, text = report
    page = Page(text)
    assert page.outside == [] and "@import" not in text and not re.search(r"url\((?!#)", text)  # only local refs
    assert page.rows == 1 + 2 and "svg" in page.tags and page.scripts == 1  # heading, two cells; the plot inline
    assert all(f"<dt>{name}</dt>" in text for name in ("command", "seed", "commit", "versions"))  # how it was made


def test_a_drill_down_command_solves_its_deal_again(report):
    out, _, text = report
    shown = re.findall(r"<h4>deal (\d+): (WIN|LOSS)</h4>.*?solve it again: <code>(.*?)</code>", text, re.S)
    assert any(result == "LOSS" for _, result, _ in shown) and any(result == "WIN" for _, result, _ in shown)
    for index, result, command in shown[:4]:
        words = shlex.split(command.replace("&quot;", '"'))
        assert words[:2] == ["crew", "solve"] and words[words.index("--index") + 1] == index
        again = json.loads(crew(*words[1:], "--json").stdout)
        assert again["result"] == result.lower()


def test_a_headless_browser_renders_the_table_and_sorts_it(report):
    _, target, _ = report
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser, "the HTML report's test needs chromium (.ci/run installs it)"
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", target.as_uri()],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert 'data-ready="sortable"' in dom  # the page's script ran
    rows = re.findall(r"<tr><td>(tasks/8/\w+)</td>", dom)
    assert sorted(rows) == ["tasks/8/dealt", "tasks/8/draft"]
