//! `aoi filter` for jq users: jq's options as jq 1.7 has
//! them, and jq's semantics where jaq's differ, each run on the real
//! binary. In plain-jq mode (`--raw`) they follow jq; on an AOI stream
//! they print without the framing and the verdict is kept.

use crate::util::Out;

fn aoi(args: &[&str], input: &[u8]) -> Out {
    let mut a = vec!["filter"];
    a.extend_from_slice(args);
    crate::util::aoi(&a, input)
}

/// `aoi filter --raw -c ARGS PROGRAM` on `input`: its stdout, exit 0.
fn raw(args: &[&str], program: &str, input: &str) -> String {
    let mut a = vec!["--raw", "-c"];
    a.extend_from_slice(args);
    a.extend(["--", program]);
    let out = aoi(&a, input.as_bytes());
    assert_eq!(out.code, 0, "{a:?}: {}", out.stderr);
    out.stdout_str()
}

fn jq(program: &str, input: &str) -> String {
    raw(&[], program, input)
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `text` in the file `name` of `dir`, a scratch directory the test
/// holds (removed when the test ends; they were left in /tmp).
fn scratch_file(dir: &crate::util::Scratch, name: &str, text: &str) -> String {
    crate::util::write_file(dir, name, text.as_bytes())
}

// --- the language: jq's semantics where jaq's differ -----------------------

#[test]
fn updates_create_missing_paths() {
    assert_eq!(jq(".a.b = 1", "null"), "{\"a\":{\"b\":1}}\n");
    assert_eq!(jq(".[2] = 1", "null"), "[null,null,1]\n");
    assert_eq!(
        jq(".foo[1].bar = 1", "null"),
        "{\"foo\":[null,{\"bar\":1}]}\n"
    );
    assert_eq!(
        jq(".a += 1 | .b //= 2 | .c |= 3", "{}"),
        "{\"a\":1,\"b\":2,\"c\":3}\n"
    );
    assert_eq!(jq(".[][1] = 9", "[[1,2],[3]]"), "[[1,9],[3,9]]\n");
    assert_eq!(
        jq("try (.[-1] = 0) catch .", "null"),
        "\"Out of bounds negative array index\"\n"
    );
    // The right side is computed on the input as it was, each value once.
    assert_eq!(
        jq("[.a = (.b, 2)]", "{\"b\":1}"),
        "[{\"b\":1,\"a\":1},{\"b\":1,\"a\":2}]\n"
    );
    // Where jaq's update fails it is run again after the paths are
    // created: once per value, and the update's own error stays its own.
    assert_eq!(
        jq("[.a.b = (1, 2)]", "null"),
        "[{\"a\":{\"b\":1}},{\"a\":{\"b\":2}}]\n"
    );
    assert_eq!(jq("try (.a.b |= error(\"x\")) catch .", "null"), "\"x\"\n");
}

#[test]
fn paths_as_jq() {
    assert_eq!(jq("del(.[1, 2])", "[1,2,3,4]"), "[1,4]\n");
    assert_eq!(jq("setpath([\"a\",1]; 5)", "null"), "{\"a\":[null,5]}\n");
    assert_eq!(
        jq("delpaths([[\"a\",0],[\"b\"]])", "{\"a\":[1,2],\"b\":1}"),
        "{\"a\":[2]}\n"
    );
    assert_eq!(
        jq(
            "pick(.a.b, .c[1])",
            "{\"a\":{\"b\":1,\"x\":2},\"c\":[1,2,3]}"
        ),
        "{\"a\":{\"b\":1},\"c\":[null,2]}\n"
    );
    assert_eq!(jq("getpath([\"a\",\"b\"])", "null"), "null\n");
    assert_eq!(jq("[paths]", "{\"a\":[1]}"), "[[\"a\"],[\"a\",0]]\n");
}

#[test]
fn destructuring_alternatives() {
    let p = ".[] as {a: $a} ?// [$a] ?// $a | $a";
    assert_eq!(jq(p, "[[1],{\"a\":2},3]"), "1\n2\n3\n");
    assert_eq!(jq(". as {$a} ?// [$b] | [$a, $b]", "[4]"), "[null,4]\n");
    // The last pattern's error is the error.
    assert_eq!(
        jq("try (. as {$a} ?// [$a] | $a) catch \"failed\"", "1"),
        "\"failed\"\n"
    );
}

#[test]
fn sql_style_and_streaming() {
    assert_eq!(jq("IN(2, 3)", "3"), "true\n");
    assert_eq!(jq("IN(.[]; 5)", "[1,2]"), "false\n");
    assert_eq!(
        jq("INDEX(.id)", "[{\"id\":1},{\"id\":\"x\"}]"),
        "{\"1\":{\"id\":1},\"x\":{\"id\":\"x\"}}\n"
    );
    assert_eq!(
        jq("JOIN({\"1\":\"one\"}; .[]; tostring)", "[1,2]"),
        "[1,\"one\"]\n[2,null]\n"
    );
    assert_eq!(
        jq("[tostream]", "[1,[2]]"),
        "[[[0],1],[[1,0],2],[[1,0]],[[1]]]\n"
    );
    assert_eq!(
        jq("fromstream(tostream)", "{\"a\":[1,{\"b\":2}]}"),
        "{\"a\":[1,{\"b\":2}]}\n"
    );
    assert_eq!(
        jq(
            "[1 | truncate_stream([[0],1],[[1,0],2],[[1,0]],[[1]])]",
            "null"
        ),
        "[[[0],2],[[0]]]\n"
    );
}

#[test]
fn strings_and_generators_as_jq() {
    assert_eq!(
        jq("[.[] | trimstr(\"a\")]", "[\"aba\",\"b\"]"),
        "[\"b\",\"b\"]\n"
    );
    assert_eq!(
        jq("try ltrimstr(\"a\") catch .", "1"),
        "\"startswith() requires string inputs\"\n"
    );
    assert_eq!(
        jq("try rtrimstr(1) catch .", "\"a\""),
        "\"endswith() requires string inputs\"\n"
    );
    assert_eq!(
        jq("try trim catch .", "1"),
        "\"trim input must be a string\"\n"
    );
    assert_eq!(jq("[ltrim, rtrim]", "\" a \""), "[\"a \",\" a\"]\n");
    assert_eq!(
        jq("[splits(\", *\")]", "\"a, b,c\""),
        "[\"a\",\"b\",\"c\"]\n"
    );
    assert_eq!(jq("[65, 97] | implode", "null"), "\"Aa\"\n");
    assert_eq!(
        jq("[-1, 1114112] | implode | explode", "null"),
        "[65533,65533]\n"
    );
    assert_eq!(jq("65 | ascii", "null"), "\"A\"\n");
    assert_eq!(jq("@base32d", "\"MZXW6YTBOI======\""), "\"foobar\"\n");
    assert_eq!(jq("@base32", "\"foobar\""), "\"MZXW6YTBOI======\"\n");
    assert_eq!(
        jq("try limit(-1; 1) catch .", "null"),
        "\"limit doesn't support negative count\"\n"
    );
    assert_eq!(jq("[nth(1, 2; range(5))]", "null"), "[1,2]\n");
    assert_eq!(jq("[limit(2; range(5))]", "null"), "[0,1]\n");
    assert_eq!(jq("have_decnum", "null"), "false\n");
    assert_eq!(jq("join(\",\")", "[\"a\",null,1,true]"), "\"a,,1,true\"\n");
    assert_eq!(
        jq(
            "from_entries",
            "[{\"name\":\"a\",\"value\":1},{\"k\":\"b\",\"v\":2}]"
        ),
        "{\"a\":1,\"b\":2}\n"
    );
    assert_eq!(
        jq("[.[] | try tonumber catch \"no\"]", "[\"1\",\".5\",\"2a\"]"),
        "[1,0.5,\"no\"]\n"
    );
    assert_eq!(
        jq("builtins | map(select(startswith(\"IN/\"))) | sort", "null"),
        "[\"IN/1\",\"IN/2\"]\n"
    );
}

#[test]
fn loc_args_and_input_filename() {
    assert_eq!(
        jq("$__loc__", "null"),
        "{\"file\":\"<top-level>\",\"line\":1}\n"
    );
    let out = aoi(&["--raw", "-c", "-n", "$ARGS", "--args", "a", "b"], b"");
    assert_eq!(
        out.stdout_str(),
        "{\"positional\":[\"a\",\"b\"],\"named\":{}}\n"
    );
    let out = aoi(
        &[
            "--raw",
            "-c",
            "-n",
            "--arg",
            "x",
            "1",
            "$ARGS.positional + [$x]",
            "--jsonargs",
            "2",
            "{}",
        ],
        b"",
    );
    assert_eq!(out.stdout_str(), "[2,{},\"1\"]\n");
    let dir = crate::util::scratch("filter-jq");
    let file = scratch_file(&dir, "in.json", "1\n");
    let out = aoi(&["--raw", "input_filename", &file], b"");
    assert_eq!(out.stdout_str(), format!("\"{file}\"\n"));
    assert_eq!(jq("input_filename", "1"), "null\n");
}

// --- the options -----------------------------------------------------------

#[test]
fn output_options_print_as_jq() {
    let input = "{\"b\":1,\"a\":\"é\"}";
    assert_eq!(raw(&["-S"], ".", input), "{\"a\":\"é\",\"b\":1}\n");
    assert_eq!(raw(&["-a"], ".a", input), "\"\\u00e9\"\n");
    assert_eq!(raw(&["--indent", "1"], ".", "[1,{}]"), "[\n 1,\n {}\n]\n");
    assert_eq!(raw(&["--tab"], ".", "{\"a\":[]}"), "{\n\t\"a\": []\n}\n");
    assert_eq!(raw(&["--seq"], ".", "1"), "\u{1e}1\n");
    assert_eq!(raw(&["--raw-output0"], ".[]", "[\"a\",1]"), "a\u{0}1\u{0}");
    let out = aoi(&["--raw", "--raw-output0", "."], b"\"a\\u0000b\"");
    assert_eq!(out.code, 5, "a NUL in a string is an error: {}", out.stderr);
    assert_eq!(raw(&["-C"], ".", "null"), "\u{1b}[1;30mnull\u{1b}[0m\n");
    // Off a terminal, no colour without -C; NO_COLOR is honoured.
    assert_eq!(raw(&["-M"], ".", "null"), "null\n");
    let out = crate::util::aoi_env(&["filter", "--raw", "."], b"null", &[("NO_COLOR", "1")]);
    assert_eq!(out.stdout_str(), "null\n");
}

#[test]
fn exit_status_follows_jq_with_raw() {
    for (program, code) in [(".[]", 1), (".[0]", 0), ("empty", 4)] {
        let out = aoi(&["--raw", "-e", program], b"[1,null]");
        assert_eq!(out.code, code, "-e {program}: {}", out.stderr);
    }
    let out = aoi(&["--raw", "-e", "error(\"x\")"], b"1");
    assert_eq!(out.code, 5, "a filter error comes first");
}

#[test]
fn exit_status_never_hides_the_verdict() {
    // A cut stream stays 74 whatever the last result.
    let out = aoi(&["-e", "true", &example("truncated.jsonl")], b"");
    assert_eq!(out.code, 74, "{}", out.stderr);
    // A passing stream: the last result decides, and stderr says so.
    let out = aoi(&["-e", "false", &example("search.jsonl")], b"");
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("-e: the last result was false or null"),
        "{}",
        out.stderr
    );
    let out = aoi(&["-e", "-r", ".type", &example("search.jsonl")], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Output flags print without the framing; the verdict is kept.
    let out = aoi(&["-S", ".type", &example("rate-limited.jsonl")], b"");
    assert_eq!(out.code, 75, "{}", out.stderr);
    assert!(!out.stdout_str().contains("aoi:"), "{}", out.stdout_str());
}

#[test]
fn program_from_a_file_and_modules() {
    let dir = crate::util::scratch("filter-jq");
    let program = scratch_file(&dir, "p.jq", "def inc: . + 1;\n.[] | inc\n");
    let input = scratch_file(&dir, "n.json", "[1,2]\n");
    let out = aoi(&["--raw", "-c", "-f", &program, &input], b"");
    assert_eq!(
        (out.code, out.stdout_str().as_str()),
        (0, "2\n3\n"),
        "{}",
        out.stderr
    );
    let out = aoi(&["--raw", "-f", "/nonexistent/p.jq"], b"");
    assert_eq!(out.code, 66, "{}", out.stderr);
    let lib = scratch_file(&dir, "m.jq", "def twice: . * 2;\n");
    let dir = std::path::Path::new(&lib)
        .parent()
        .expect("its folder")
        .display()
        .to_string();
    let out = aoi(&["--raw", "-c", "-L", &dir, "include \"m\"; twice"], b"4");
    assert_eq!(
        (out.code, out.stdout_str().as_str()),
        (0, "8\n"),
        "{}",
        out.stderr
    );
    let out = aoi(&["--raw", "-c", "import \"m\" as m; m::twice"], b"4");
    assert_eq!(
        out.code, 64,
        "without -L the module is not found: {}",
        out.stderr
    );
}

#[test]
fn variables_from_files() {
    let dir = crate::util::scratch("filter-jq");
    let text = scratch_file(&dir, "t.txt", "hi\n");
    let values = scratch_file(&dir, "v.json", "1 [2]\n");
    let out = aoi(
        &[
            "--raw",
            "-c",
            "-n",
            "--rawfile",
            "t",
            &text,
            "--slurpfile",
            "v",
            &values,
            "[$t, $v]",
        ],
        b"",
    );
    assert_eq!(out.stdout_str(), "[\"hi\\n\",[1,[2]]]\n", "{}", out.stderr);
    let out = aoi(&["--raw", "-n", "--slurpfile", "v", &text, "$v"], b"");
    assert_eq!(out.code, 64, "not JSON: {}", out.stderr);
}

#[test]
fn raw_input_reads_lines() {
    assert_eq!(raw(&["-R"], ".", "a\n\nb"), "\"a\"\n\"\"\n\"b\"\n");
    assert_eq!(raw(&["-R", "-s"], ".", "a\nb\n"), "\"a\\nb\\n\"\n");
    let out = aoi(&["-R", ".", &example("search.jsonl")], b"");
    assert_eq!(out.code, 64, "-R reads text: --raw only: {}", out.stderr);
}

#[test]
fn help_has_a_part_for_jq_users() {
    let out = aoi(&["--help"], b"");
    let help = out.stdout_str();
    assert!(help.contains("For jq users"), "{help}");
    for flag in [
        "--ascii-output",
        "--sort-keys",
        "--tab",
        "--indent",
        "--seq",
        "--raw-output0",
        "--exit-status",
        "--from-file",
        "--jsonargs",
        "--rawfile",
        "--slurpfile",
        "--raw-input",
        "--color-output",
        "--monochrome-output",
    ] {
        assert!(help.contains(flag), "{flag} in --help");
    }
}

/// `-f` makes the first positional argument an input, and `--args` makes
/// them `$ARGS.positional`, before the inputs are resolved: a
/// `--files-from` list's names are inputs whatever these options say, an
/// empty list beside a named input is no error, and stdin as both the
/// list and an input is the usage error it is without `-f`.
#[test]
fn program_options_place_arguments_before_the_list_is_read() {
    let dir = crate::util::scratch("filter-jq-list");
    let program = scratch_file(&dir, "p.jq", "[.]\n");
    let a = scratch_file(&dir, "a.json", "1\n2\n");
    let b = scratch_file(&dir, "b.json", "3\n");
    let empty = scratch_file(&dir, "empty", "");
    let list = scratch_file(&dir, "list", &format!("{a}\n{b}\n"));
    let out = aoi(
        &["--raw", "-c", "-f", &program, &a, "--files-from", &empty],
        b"",
    );
    assert_eq!(
        (out.code, out.stdout_str().as_str()),
        (0, "[1]\n[2]\n"),
        "{}",
        out.stderr
    );
    let out = aoi(
        &["--raw", "-c", "-f", &program, "-", "--files-from", "-"],
        list.as_bytes(),
    );
    assert_eq!(out.code, 64, "stdin as list and input: {}", out.stderr);
    let args = [
        "--raw",
        "-c",
        "--args",
        "[$ARGS.positional, .]",
        "x",
        "--files-from",
        &list,
    ];
    let out = aoi(&args, b"");
    let want = "[[\"x\"],1]\n[[\"x\"],2]\n[[\"x\"],3]\n";
    assert_eq!(
        (out.code, out.stdout_str().as_str()),
        (0, want),
        "{}",
        out.stderr
    );
}

/// A program that does not compile is said first (64), before a
/// `--files-from` list or a `--schema` that cannot be read (66), as jq
/// says a compile error before it opens any file; with a program that
/// compiles, the unreadable list is what is said.
#[test]
fn a_compile_error_is_said_before_an_unreadable_list_or_schema() {
    let dir = crate::util::scratch("filter-jq-order");
    let missing = dir.join("no-such-list").display().to_string();
    for extra in [["--files-from", &missing], ["--schema", &missing]] {
        for mode in [&[][..], &["--raw"][..]] {
            let mut args = mode.to_vec();
            args.extend(["{", extra[0], extra[1]]);
            let out = aoi(&args, b"");
            assert_eq!(out.code, 64, "{args:?}: {}", out.stderr);
            assert!(
                out.stderr.contains("does not compile") && !out.stderr.contains("no-such-list"),
                "{args:?}: {}",
                out.stderr
            );
            let mut args = mode.to_vec();
            args.extend([".", extra[0], extra[1]]);
            let out = aoi(&args, b"");
            assert_eq!(out.code, 66, "{args:?}: {}", out.stderr);
            assert!(
                out.stderr.contains("no-such-list"),
                "{args:?}: {}",
                out.stderr
            );
        }
    }
}
