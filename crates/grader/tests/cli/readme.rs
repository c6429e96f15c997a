//! README.md's and docs/'s examples are real output: every ```` ```console ````
//! block of README.md and of each `docs/*.md` is run,
//! command by command, in one shell (variables set by one command are seen by the
//! next), and what each prints on stdout must be what the block shows after it
//! (a command shows its stderr by saying `2>&1`).
//!
//! The shell runs in a fresh folder holding links to the repository's `puzzles/`
//! and `docs/`-like empty folders, with `grader` on its `PATH`. A `$ cat FILE`
//! whose file is not there writes the lines shown into it first, so a block can
//! show the input it then reads. Times (`, 0.8 s`) are compared as `<time>`, since
//! they change from run to run. Blocks that cannot run here (a server, a
//! terminal) are fenced as ```` ```text ````.

use super::GRADER;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a block and the output shown after it.
struct Example {
    command: String,
    expected: String,
    /// Where the command stands in README.md (1-based line).
    line: usize,
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The console blocks of a Markdown text, each as its examples.
fn console_blocks(markdown: &str) -> Vec<Vec<Example>> {
    console_blocks_of("README.md", markdown)
}

/// The console blocks of the Markdown file `name`.
fn console_blocks_of(name: &str, markdown: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Example>> = None;
    for (i, line) in markdown.lines().enumerate() {
        match &mut current {
            None if line.trim_end() == "```console" => current = Some(Vec::new()),
            None => {}
            Some(_) if line.trim_end() == "```" => blocks.push(current.take().unwrap()),
            Some(examples) => {
                if let Some(command) = line.strip_prefix("$ ") {
                    examples.push(Example {
                        command: command.to_string(),
                        expected: String::new(),
                        line: i + 1,
                    });
                } else {
                    let example = examples
                        .last_mut()
                        .unwrap_or_else(|| panic!("{name}:{}: output before a `$` line", i + 1));
                    example.expected.push_str(line);
                    example.expected.push('\n');
                }
            }
        }
    }
    assert!(current.is_none(), "{name}: a console block is not closed");
    blocks
}

/// `, 0.8 s` and `, 12 s` become `, <time>`: the times of a run.
fn mask_times(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(", ") {
        out.push_str(&rest[..at + 2]);
        rest = &rest[at + 2..];
        let number = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if number > 0 && rest[number..].starts_with(" s") {
            out.push_str("<time>");
            rest = &rest[number + 2..];
        }
    }
    out.push_str(rest);
    out
}

const MARK: &str = "\u{1e}README-EXAMPLE\u{1e}";

/// Runs a block's commands in one shell in `dir` and gives each one's output.
fn run_block(dir: &Path, examples: &[Example]) -> Vec<String> {
    // Each command sees the exit status of the one before it (`echo $?`).
    let mut script = String::from("set +e\nstatus=0\n");
    for example in examples {
        if let Some(file) = example.command.strip_prefix("cat ") {
            let path = dir.join(file.trim());
            if !file.contains(['/', ' ', '$']) && !path.exists() {
                std::fs::write(&path, &example.expected).unwrap();
            }
        }
        script.push_str(&format!(
            "printf '%s\\n' '{MARK}'\n(exit $status)\n{{ {}\n}} 2>/dev/null\nstatus=$?\n",
            example.command
        ));
    }
    let bin = dir.join("bin");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .output()
        .expect("cannot run bash");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut parts: Vec<String> = text
        .split(&format!("{MARK}\n"))
        .map(str::to_string)
        .collect();
    assert_eq!(parts.remove(0), "", "output before the first command");
    assert_eq!(parts.len(), examples.len(), "{text}");
    parts
}

/// A fresh folder for one document's examples: `grader` on the path, the corpus
/// linked.
fn sandbox(document: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "grader-readme-{}-{}",
        std::process::id(),
        document.replace('/', "-")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::create_dir_all(dir.join("docs/images")).unwrap();
    std::os::unix::fs::symlink(GRADER, dir.join("bin/grader")).unwrap();
    std::os::unix::fs::symlink(repository().join("puzzles"), dir.join("puzzles")).unwrap();
    dir
}

/// README.md, then every Markdown file of docs/, by name.
fn documents() -> Vec<(String, String)> {
    let mut names = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(repository().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(repository().join(&n)).unwrap();
            (n, text)
        })
        .collect()
}

#[test]
fn readme_examples_are_real_output() {
    let documents = documents();
    let readme_blocks = console_blocks(&documents[0].1).len();
    assert!(
        readme_blocks >= 5,
        "README.md has {readme_blocks} console blocks"
    );
    let mut failures = Vec::new();
    for (name, text) in &documents {
        // Each document in its own folder: the files one writes are not another's.
        let dir = sandbox(name);
        for examples in &console_blocks_of(name, text) {
            let outputs = run_block(&dir, examples);
            for (example, got) in examples.iter().zip(outputs) {
                // A blank line between two commands is layout, not output.
                let trim = |s: &str| mask_times(s.trim_end_matches('\n'));
                let (want, got) = (trim(&example.expected), trim(&got));
                if want != got {
                    failures.push(format!(
                        "{name}:{}: $ {}\n--- {name} shows:\n{want}\n--- it prints:\n{got}\n",
                        example.line, example.command
                    ));
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn blocks_are_split_into_commands_and_outputs() {
    let blocks = console_blocks("x\n```console\n$ a\n1\n2\n$ b\n```\n```text\n$ c\n```\n");
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0][0].command, "a");
    assert_eq!(blocks[0][0].expected, "1\n2\n");
    assert_eq!(blocks[0][1].expected, "");
    assert_eq!(blocks[0][1].line, 6);
    assert_eq!(
        mask_times("found 2 in 3 attempts, 0.8 s (seed 1), 12 s, 3 x"),
        "found 2 in 3 attempts, <time> (seed 1), <time>, 3 x"
    );
}
