"""Imports put off inside functions, and ``if TYPE_CHECKING:`` blocks, under a folder.

    python3 benchmarks/import_structure.py carwars_desktop [-v]

An import nested in a function counts once (however deep); ``-v`` lists the files, most
first. Start-up puts some imports off on purpose (``gui/startup.py``); the rest hide the
dependency graph.
"""

from __future__ import annotations

import argparse
import ast
import pathlib
import sys


class _Counter(ast.NodeVisitor):
    def __init__(self) -> None:
        self.depth = 0
        self.in_functions = 0
        self.type_checking = 0

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:  # noqa: N802
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef  # noqa: N815

    def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:  # noqa: N802
        if self.depth:
            self.in_functions += 1

    visit_ImportFrom = visit_Import  # noqa: N815

    def visit_If(self, node: ast.If) -> None:  # noqa: N802
        test = node.test
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
            self.type_checking += 1
        self.generic_visit(node)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Count imports inside functions and "
                                                 "TYPE_CHECKING blocks of a package.")
    parser.add_argument("root", nargs="?",
                        default=str(pathlib.Path(__file__).resolve().parent.parent
                                    / "carwars_desktop"),
                        help="the package folder (default: carwars_desktop)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list each file")
    parser.add_argument("--quick", action="store_true",
                        help="as ./dev test runs every benchmark (the count is quick anyway)")
    args = parser.parse_args(argv)
    root = pathlib.Path(args.root)
    if not root.is_dir():
        parser.error(f"{root} is not a folder")
    in_functions = type_checking = 0
    per_file: dict[str, tuple[int, int]] = {}
    for path in sorted(root.rglob("*.py")):
        counter = _Counter()
        counter.visit(ast.parse(path.read_text(), str(path)))
        in_functions += counter.in_functions
        type_checking += counter.type_checking
        if counter.in_functions or counter.type_checking:
            per_file[str(path)] = (counter.in_functions, counter.type_checking)
    if args.verbose:
        for name, (nested, blocks) in sorted(per_file.items(), key=lambda kv: -kv[1][0]):
            print(f"{nested:4} {blocks:2} {name}")
    print(f"imports inside functions: {in_functions}  TYPE_CHECKING blocks: {type_checking}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
