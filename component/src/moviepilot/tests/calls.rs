//! Calling bridged tools: the three layers of results, deadlines, policy and argument checks.
