use std::time::Duration;

use super::cpu_time_of_stat;

#[test]
fn cpu_time_adds_user_and_system_ticks_after_a_name_with_spaces_and_parentheses() {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    let stat = "4242 (host (x) y) S 1 4242 4242 0 -1 4194304 1200 0 3 0 150 25 0 0 20 0 9 0";
    assert_eq!(
        cpu_time_of_stat(stat, 100),
        Some(Duration::from_millis(1750))
    );
    assert_eq!(
        cpu_time_of_stat(stat, 1000),
        Some(Duration::from_millis(175))
    );
}

#[test]
fn a_truncated_stat_line_gives_no_cpu_time() {
    assert_eq!(cpu_time_of_stat("4242 (x) S 1 2 3", 100), None);
    assert_eq!(cpu_time_of_stat("no parenthesis", 100), None);
}
