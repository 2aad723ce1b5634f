//! Replays the committed fuzz corpus (`crates/media-mcp-fuzz/corpus/<target>/*`) through the same target
//! functions `cargo fuzz` runs, on stable, so CI checks every input ever kept or found.

use std::path::PathBuf;

fn corpus_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../media-mcp-fuzz/corpus")
        .join(target)
}

#[test]
fn every_target_has_a_corpus_and_replays_it_without_failing() {
    for (name, target) in media_mcp_fuzz_targets::TARGETS {
        let dir = corpus_dir(name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        assert!(
            files.len() >= 10,
            "{name}: only {} corpus inputs",
            files.len()
        );
        for file in &files {
            let data = std::fs::read(file).expect("a corpus file");
            let outcome = std::panic::catch_unwind(|| target(&data));
            assert!(outcome.is_ok(), "{name}: {} fails", file.display());
        }
        eprintln!("{name}: {} inputs replayed", files.len());
    }
}
