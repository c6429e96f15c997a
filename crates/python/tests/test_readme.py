"""The README's Python examples are real output."""

from __future__ import annotations

import doctest
import re


def test_readme_python_examples(repo):
    text = (repo / "README.md").read_text()
    blocks = re.findall(r"```pycon\n(.*?)```", text, re.S)
    assert blocks, "the README has Python examples"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README.md example {i + 1}", "README.md", 0))
    assert runner.summarize(verbose=False).failed == 0
