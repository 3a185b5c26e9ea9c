"""The command line's shape (issue #15): options declared once, one name for each idea, one error mapping."""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path

import pytest

import reviewtui as cg
from reviewtui.cli import COMMANDS, build_parser, main
from reviewtui.cli.exits import EXIT_USAGE, error_exits
from reviewtui.cli.options import INPUT_FORMATS
from reviewtui.evalset.io import write_csv, write_jsonl
from reviewtui.evalset.model import errors

CLI = Path(__file__).resolve().parent.parent / "reviewtui" / "cli"
READS_A_SET = ("review", "info", "convert", "resolve", "export", "status", "audit", "filter", "overlap", "assign", "agreement", "adjudicate")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {option: action for action in parser._actions for option in action.option_strings}


@pytest.fixture
def quiz(tmp_path):
    items = tuple(cg.EvalItem(id=f"q{i}", question=f"Which form does rule {i} ask for?") for i in range(3))
    return write_jsonl(cg.EvalSet(id="quiz", items=items), tmp_path / "quiz.jsonl")


def test_the_input_formats_are_the_readers():
    from reviewtui.evalset.io.sniff import FORMATS

    assert INPUT_FORMATS == FORMATS


def test_every_command_that_reads_a_set_takes_from_and_the_help_shows_only_that_name():
    commands = _subparsers(build_parser())
    assert set(READS_A_SET) == set(commands)
    for name in READS_A_SET:
        parser = commands[name]
        options = _options(parser)
        assert options["--from"].dest == "input_format", name
        assert options["--input-format"].dest == "input_format", name
        shown = parser.format_help()
        assert "--from FORMAT" in shown and "--input-format" not in shown, name


@pytest.mark.parametrize("name", ["review", "resolve"])
def test_format_stays_an_input_spelling_where_it_was_one(name):
    options = _options(_subparsers(build_parser())[name])
    assert options["--format"].dest == "input_format"
    assert options["--format"].help == argparse.SUPPRESS


@pytest.mark.parametrize("name", ["export", "audit"])
def test_the_output_format_is_to_with_format_as_its_older_spelling(name):
    parser = _subparsers(build_parser())[name]
    options = _options(parser)
    assert options["--to"].dest == options["--format"].dest == "output_format"
    assert options["--format"].help == argparse.SUPPRESS
    assert "--to FORMAT" in parser.format_help()


def test_status_reads_with_from_and_with_the_older_spelling(quiz, tmp_path, capsys):
    as_csv = write_csv(cg.read_jsonl(quiz), tmp_path / "quiz.data")
    for spelling in ("--from", "--input-format"):
        assert main(["status", str(as_csv), spelling, "csv"]) == 0
        assert "3" in capsys.readouterr().out


def test_info_takes_from(quiz, capsys):
    assert main(["info", str(quiz), "--from", "JSONL"]) == 0
    assert "3 questions" in capsys.readouterr().out


def test_an_unknown_input_format_is_a_usage_error(quiz, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["info", str(quiz), "--from", "xml"])
    assert stopped.value.code == EXIT_USAGE
    assert "invalid choice" in capsys.readouterr().err


def test_export_writes_csv_with_to(quiz, tmp_path):
    out = tmp_path / "out.csv"
    assert main(["export", str(quiz), "-o", str(out), "--to", "csv"]) == 0
    assert out.read_text(encoding="utf-8").startswith("id,")


def test_export_writes_what_its_output_is_named(quiz, tmp_path):
    # -o out.csv without --to wrote JSON Lines into a file named .csv; --to still decides when given.
    named = tmp_path / "named.csv"
    assert main(["export", str(quiz), "-o", str(named)]) == 0
    assert named.read_text(encoding="utf-8").startswith("id,")
    assert main(["export", str(quiz), "-o", str(tmp_path / "plain.jsonl")]) == 0
    assert (tmp_path / "plain.jsonl").read_text(encoding="utf-8").startswith("{")


@pytest.mark.parametrize(
    ("command", "name", "said"),
    [
        # JSON Lines in a .json file read back as one broken JSON document; CSV in .jsonl as broken JSON
        (["export"], "reviewed.json", "its name ends in .json, but a set is written as .jsonl (JSON Lines) or .csv"),
        (["export"], "out.TSV", "its name ends in .tsv"),
        (["export"], "reviewed", "its name has no extension"),
        # a name that is only the extension is a hidden file with no extension; suggesting ".jsonl.jsonl" helped nobody
        (["export"], ".jsonl", "its name is only an extension; give the file a name before it, such as reviewed.jsonl"),
        (["filter"], ".CSV", "its name is only an extension; give the file a name before it, such as reviewed.CSV"),
        (["export", "--to", "csv"], "out.jsonl", "--to csv writes CSV, but the name ends in .jsonl"),
        (["export", "--to", "jsonl"], "told.csv", "--to jsonl writes JSONL, but the name ends in .csv"),
        (["export", "--rejected"], "rejected.json", "its name ends in .json"),
        (["filter"], "kept.json", "its name ends in .json"),
    ],
)
def test_a_set_is_never_written_under_a_name_it_cannot_be_read_back_by(quiz, tmp_path, capsys, command, name, said):
    out = tmp_path / name
    assert main([command[0], str(quiz), "-o", str(out), *command[1:]]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert f"{out}: {said}" in err and "Traceback" not in err
    assert not out.exists()


def test_a_stream_takes_a_set_whatever_its_name(quiz, tmp_path, capsys):
    assert main(["export", str(quiz), "-o", "/dev/null"]) == 0
    assert "wrote /dev/null: version 2" in capsys.readouterr().out
    assert main(["filter", str(quiz), "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("{")


@pytest.mark.parametrize("command", ["export", "filter", "audit", "resolve"])
def test_an_empty_output_name_is_a_usage_error(quiz, capsys, command):
    """Each command read -o "" its own way: as no -o at all, as the current folder, as standard output."""
    with pytest.raises(SystemExit) as stopped:
        main([command, str(quiz), "-o", ""])
    assert stopped.value.code == EXIT_USAGE
    assert "argument -o/--output: an empty name names no file" in capsys.readouterr().err



@pytest.mark.parametrize("command", ["resolve", "audit", "review"])
def test_an_empty_corpus_name_is_a_usage_error(quiz, capsys, command):
    """resolve --corpus "" ended in a traceback and exit 1 (a failing finding to CI); audit read no corpus at all."""
    with pytest.raises(SystemExit) as stopped:
        main([command, str(quiz), "--corpus", ""])
    assert stopped.value.code == EXIT_USAGE
    assert "argument --corpus: an empty name names no corpus" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["export", "status"])
def test_a_journal_named_that_does_not_exist_is_an_input_error(quiz, tmp_path, capsys, command):
    """A mistyped --journal read as a review not begun: export wrote the set with nothing decided, exit 0, and
    asked for the --journal it was given."""
    out = tmp_path / "out.jsonl"
    argv = [command, str(quiz), "--journal", str(tmp_path / "nodir" / "j")] + (["-o", str(out)] if command == "export" else [])
    assert main(argv) == EXIT_USAGE
    assert f"{tmp_path / 'nodir' / 'j'}: no such journal" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["resolve", "{quiz}", "--corpus", ".", "--threshold", "0"], "argument --threshold: 0 is not above 0 and at most 100"),
        (["resolve", "{quiz}", "--corpus", ".", "--threshold", "nan"], "argument --threshold: nan is not above 0"),
        (["assign", "{quiz}", "--reviewers", "a,b", "--overlap", "1.5"], "argument --overlap: 1.5 is not a whole number"),
        (["assign", "{quiz}", "--reviewers", "a,b", "--overlap", "0"], "argument --overlap: 0 is not a whole number"),
    ],
)
def test_values_out_of_range_are_refused_as_the_arguments_are_parsed(quiz, capsys, argv, said):
    """Checked after the core's imports, these usage errors took 8-10x a bare interpreter."""
    _refused_as_parsed(quiz, capsys, argv, said)


def _refused_as_parsed(quiz, capsys, argv: list[str], said: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([arg.format(quiz=quiz) for arg in argv])
    assert stopped.value.code == EXIT_USAGE
    err = capsys.readouterr().err
    assert said in err
    # the command's usage line and name, as argparse's own errors give them: it was the top-level "reviewtui SUBCOMMAND"
    assert err.startswith(f"usage: reviewtui {argv[0]} ") and f"reviewtui {argv[0]}: error: " in err, err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["audit", "{quiz}", "--ext", ".rst"], "--ext names the documents of a --corpus to read: give --corpus too"),
        (["resolve", "{quiz}", "--corpus", ".", "--requote", "--no-quotes"], "--requote replaces anchors"),
        (["resolve", "{quiz}", "--corpus", ".", "--no-fuzzy", "--threshold", "50"], "which --no-fuzzy turns off"),
        (["convert", "{quiz}", "{quiz}.out.jsonl", "--id", "  "], "--id '  ' cannot be a set's id"),
        (["audit", "{quiz}", "-o", "rep.md", "--to", "json"], "-o rep.md names the md format, and --to asks for json"),
        (["export", "{quiz}", "--consensus", "majority", "--all"], "--consensus merges every journal of the team"),
        (["export", "{quiz}", "--consensus", "majority", "--journal", "j"], "it takes neither --journal nor --all"),
    ],
)
def test_options_that_cannot_both_be_meant_are_refused(quiz, capsys, argv, said):
    """Each of these left one option to do nothing (or, for audit, wrote JSON into a .md file), without a word."""
    _refused_as_parsed(quiz, capsys, argv, said)


def test_a_report_of_any_format_may_go_into_a_txt_file(quiz, tmp_path, capsys):
    assert main(["audit", str(quiz), "--to", "md", "-o", str(tmp_path / "notes.txt")]) in (0, 1)
    assert (tmp_path / "notes.txt").read_text().startswith("#")


def test_the_set_given_as_its_own_corpus_is_said_to_be_a_set(quiz, capsys):
    """`--corpus quiz.jsonl` was told "a document needs an `_id`", which said nothing of the mix-up."""
    assert main(["audit", str(quiz), "--corpus", str(quiz)]) == EXIT_USAGE
    assert f"{quiz}:1: this is an eval set, not a corpus: --corpus takes the folder" in capsys.readouterr().err


def test_a_dash_for_standard_input_names_the_way_to_read_it(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["audit", "-"]) == EXIT_USAGE
    assert "-: no such file; to read standard input, name it /dev/stdin with --from FORMAT" in capsys.readouterr().err


def test_convert_takes_no_empty_output_name(quiz, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["convert", str(quiz), ""])
    assert stopped.value.code == EXIT_USAGE
    assert "argument OUT: an empty name names no file" in capsys.readouterr().err


def test_every_kind_of_error_has_an_exit_code():
    kinds = {getattr(errors, name) for name in errors.__all__}
    mapped = [kind for kind, _code in error_exits()]
    assert kinds <= set(mapped)
    assert mapped[-1] is OSError
    # A kind listed after one of its bases would never be reached.
    for i, kind in enumerate(mapped):
        assert not any(issubclass(kind, earlier) for earlier in mapped[:i]), kind


def test_an_error_becomes_one_line_and_exit_2(tmp_path, capsys):
    assert main(["info", str(tmp_path / "missing.jsonl")]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.jsonl" in err


def test_subcommands_import_no_package_init_and_no_importlib():
    for path in CLI.glob("*.py"):
        if path.name in ("__init__.py", "__main__.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "reviewtui.cli", f"{path.name} imports the package"
            if isinstance(node, ast.Import):
                assert all(alias.name != "importlib" for alias in node.names), path.name
    assert "importlib" not in (CLI / "__init__.py").read_text(encoding="utf-8")
    assert all(hasattr(command, "register") and hasattr(command, "NAME") for command in COMMANDS)


def test_help_imports_no_pydantic_textual_rich_or_numpy():
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "reviewtui", "--help"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and "SUBCOMMAND" in done.stdout
    loaded = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line]
    heavy = [name for name in loaded if name.split(".")[0] in ("pydantic", "pydantic_core", "textual", "rich", "numpy")]
    assert heavy == []


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["audit", "--help"], ["audit"], ["--no-such-option"], ["status", "x.jsonl", "--no-such-option"], ["stauts"]],
    ids=["help", "command help", "missing file", "unknown option", "a command's unknown option", "mistyped command"],
)
def test_help_and_usage_errors_answer_without_loading_the_data_model(argv):
    """The data model (pydantic) is most of a command's start-up: help and a refused command line need none of it.

    A FILE argument is named while the arguments are parsed, before an unknown option after it is refused;
    that naming once imported the file helpers and, through them, the model (benchmarks/bench_cli_start.py).
    """
    script = (
        "import sys\n"
        "from reviewtui.cli import main\n"
        "try:\n"
        f"    code = main({argv!r})\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "print(code, 'pydantic' in sys.modules, 'reviewtui.evalset.model.items' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    code, pydantic, model = done.stdout.split()[-3:]
    assert code == ("0" if "--help" in argv else "2"), done.stdout + done.stderr
    assert (pydantic, model) == ("False", "False"), done.stdout + done.stderr


def test_a_mistyped_command_is_named_with_the_command_it_resembles(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "quiz.jsonl").write_text("")
    with pytest.raises(SystemExit) as exc:
        main(["stauts", "quiz.jsonl"])
    assert exc.value.code == EXIT_USAGE
    err = capsys.readouterr().err
    assert "'stauts' is neither a command nor a file; did you mean 'status'?" in err
    assert "unrecognized arguments" not in err  # not the file, which is fine, but the word before it


def test_a_review_options_value_before_the_file_is_not_read_as_a_command(tmp_path, monkeypatch):
    """`reviewtui --reviewer stats quiz.jsonl` was told "'stats' is neither a command nor a file", and
    `--reviewer info` ran info."""
    from reviewtui.cli import _mistyped_command, _with_default_command

    monkeypatch.chdir(tmp_path)
    (tmp_path / "quiz.jsonl").write_text("")
    assert _mistyped_command(["--reviewer", "stats", "quiz.jsonl"]) is None
    for name in ("info", "status"):
        assert _with_default_command(["--reviewer", name, "quiz.jsonl"]) == ["review", "--reviewer", name, "quiz.jsonl"]
    assert _with_default_command(["--all", "status", "quiz.jsonl"]) == ["--all", "status", "quiz.jsonl"]  # no value
    assert _with_default_command(["status", "quiz.jsonl"]) == ["status", "quiz.jsonl"]


def test_a_file_named_like_a_command_is_still_opened_as_a_file(tmp_path, monkeypatch):
    from reviewtui.cli import _mistyped_command

    monkeypatch.chdir(tmp_path)
    assert _mistyped_command(["statu"]) is not None
    (tmp_path / "statu").write_text("")
    assert _mistyped_command(["statu"]) is None  # a file of that name: reviewtui FILE opens it
    assert _mistyped_command(["quiz.jsonl"]) is None  # nothing like a command: the file's own error says more
    assert _mistyped_command(["status", "x"]) is None


def test_every_command_says_what_it_does_in_its_help():
    import argparse

    from reviewtui.cli import build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name, sub in commands.choices.items():
        assert sub.description, f"reviewtui {name} --help has no description"


def test_a_help_names_the_corpus_among_what_is_never_replaced_only_where_the_command_takes_one():
    import argparse

    from reviewtui.cli import build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name, sub in commands.choices.items():
        takes_corpus = any("--corpus" in action.option_strings for action in sub._actions)
        says_corpus = "--corpus read" in (sub.description or "")
        assert says_corpus <= takes_corpus, f"reviewtui {name} --help speaks of a --corpus it does not take"
        if "never replaced" in (sub.description or "") and takes_corpus:
            assert says_corpus, name


@pytest.mark.parametrize("command", ["status", "export", "review", "agreement", "adjudicate"])
@pytest.mark.parametrize("split", ["../queries", "x/y", ".."])
def test_a_split_that_cannot_name_a_file_is_a_usage_error_not_a_traceback(tmp_path, capsys, monkeypatch, command, split):
    """The journal's or the team folder's name was built from --split before the set was asked: a traceback, exit 1."""
    from reviewtui.cli import main
    from reviewtui.evalset.review.session import ReviewSession

    def opened(*args, **kwargs):  # the app must never start here
        raise RuntimeError("the review was opened")

    monkeypatch.setattr(ReviewSession, "open", opened)
    path = tmp_path / "quiz.jsonl"
    path.write_text('{"id": "q1", "question": "How long may a saw be kept?"}\n', encoding="utf-8")
    argv = [str(path), "--split", split] if command == "review" else [command, str(path), "--split", split]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1, err


def test_an_error_quoting_a_huge_id_or_key_stays_one_short_line(tmp_path, capsys):
    """A 20 MB key or id was quoted whole: a 'one-line' error of 20 MB."""
    from reviewtui.cli import main

    cases = {
        "key.jsonl": '{"id": "a", "question": "q", "' + "k" * 100_000 + '": 1}\n',
        "blank.jsonl": '{"id": "' + "i" * 100_000 + '", "question": "  "}\n',
        "twice.jsonl": ('{"id": "' + "i" * 100_000 + '", "question": "q"}\n') * 2,
        "spaced.jsonl": ('{"id": "' + "x y " * 50_000 + '", "question": "q"}\n') * 2,  # no long run: cut all the same
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert main(["info", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and len(err) < 2200 and "characters left out]" in err, err[:300]
        assert err.startswith(f"{path}:"), err[:300]
    deep = tmp_path.joinpath(*["a_rather_long_folder_name_for_this_test"] * 11)  # a path of 450 characters and more
    deep.mkdir(parents=True)
    assert main(["info", str(deep / "missing.jsonl")]) == 2
    err = capsys.readouterr().err
    assert str(deep / "missing.jsonl") in err and "left out" not in err  # a long path is shown whole


@pytest.mark.parametrize("login", ["x\udcff", "ev\x1b]0;T\x07", "ana\u200b"])
def test_a_login_name_that_does_not_show_as_itself_is_refused_as_a_given_one_is(monkeypatch, login):
    """With no name given, the login name signed the journal unchecked: one not UTF-8 crashed the app (and left
    its lock), one with an escape sequence went into every record."""
    from reviewtui.cli.options import reviewer_for
    from reviewtui.evalset.io.settings import AppConfig
    from reviewtui.evalset.model.errors import InputError

    monkeypatch.delenv("REVIEWTUI_REVIEWER", raising=False)
    monkeypatch.setattr("getpass.getuser", lambda: login)
    with pytest.raises(InputError) as refused:
        reviewer_for(None, AppConfig())
    assert "does not show as itself" in str(refused.value) and "the name comes from the login name" in str(refused.value)
    monkeypatch.setattr("getpass.getuser", lambda: "ana")
    assert reviewer_for(None, AppConfig()) == "ana"


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("htm,x", "give each its own --ext"),
        ("", "is not a file name extension"),
        (".", "is not a file name extension"),
        ("*", "is not a file name extension"),
        ("tar.gz", "is not one extension"),
        ("..xyz", "is not one extension"),
    ],
)
def test_an_ext_that_is_not_one_extension_is_a_usage_error(tmp_path, capsys, value, says):
    """--ext 'htm,x' was one extension to the command and two to the app's checks, which then found a document the
    app's own `x` said was not in the corpus; "", "." and "*" read nothing and said nothing."""
    from reviewtui.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["audit", str(tmp_path / "s.jsonl"), "--corpus", str(tmp_path), "--ext", value])
    assert stopped.value.code == 2 and says in capsys.readouterr().err
