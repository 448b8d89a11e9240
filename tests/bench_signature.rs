//! The bench signature: `poolshark bench` with its defaults searches exactly the node count
//! the code declares (`poolshark_engine::bench::SIGNATURE`), as Stockfish's signature check does, so
//! a change to search or evaluation cannot land without its commit saying so.

mod support;

#[test]
fn bench_matches_the_declared_signature() {
    let (code, out, err) = support::run_cli(&["bench"]);
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap_or_default();
    // The closing line: `nodes <n> nps <n>`.
    let nodes: u64 = last
        .strip_prefix("nodes ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {last:?}"));
    assert_eq!(
        nodes,
        poolshark_engine::bench::SIGNATURE,
        "bench searched {nodes} nodes; if the change is meant, set bench::SIGNATURE to it and \
         quote `Bench: {nodes}` in the commit"
    );
}
