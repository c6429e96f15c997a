"""The Python examples of README.md and docs/*.md are real output."""

from __future__ import annotations

import doctest
import re


def test_python_examples_of_the_docs(repo):
    documents = [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for document in documents:
        name = document.relative_to(repo).as_posix()
        blocks = re.findall(r"```pycon\n(.*?)```", document.read_text(), re.S)
        for i, block in enumerate(blocks):
            examples += 1
            runner.run(parser.get_doctest(block, {}, f"{name} example {i + 1}", name, 0))
    assert examples, "the docs have Python examples"
    assert runner.summarize(verbose=False).failed == 0
