//! JSON Schema `pattern`s (ECMA-262 syntax) matched by a small Thompson-NFA simulation.
//!
//! Why not a regex crate: the wasm build is `no_std`, where the smallest well-kept engine
//! (regex-automata's PikeVM with regex-syntax) costs ~190 KB, a fifth of the 1 MiB artifact
//! budget, for the handful of anchored patterns our schemas use. This engine supports the
//! subset those patterns (and typical third-party schema patterns) need: anchors, `.`, classes
//! with ranges and `\d\w\s`, groups, alternation, and the quantifiers `* + ? {n} {n,} {n,m}`.
//! Anything else (look-around, back-references, `\b`) is refused (`None`), so a schema with such
//! a pattern rejects rather than silently accepts. Matching is linear in the input (no
//! backtracking), so hostile patterns from bridged servers cannot blow up. Tests compare it with
//! the `regex` crate on the patterns in use.

use crate::prelude::*;

/// Largest compiled program, in instructions (bounds counted repetition like `{1000}`).
const MAX_PROGRAM: usize = 10_000;

/// A set of characters: ranges, possibly negated.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CharSet {
    ranges: Vec<(char, char)>,
    negated: bool,
}

impl CharSet {
    fn one(c: char) -> Self {
        Self {
            ranges: vec![(c, c)],
            negated: false,
        }
    }

    fn contains(&self, c: char) -> bool {
        self.ranges.iter().any(|(lo, hi)| *lo <= c && c <= *hi) != self.negated
    }
}

const LINE_TERMINATORS: [(char, char); 3] = [('\n', '\n'), ('\r', '\r'), ('\u{2028}', '\u{2029}')];
const DIGIT: [(char, char); 1] = [('0', '9')];
const WORD: [(char, char); 4] = [('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
const SPACE: [(char, char); 10] = [
    ('\t', '\r'),
    (' ', ' '),
    ('\u{a0}', '\u{a0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200a}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202f}', '\u{202f}'),
    ('\u{205f}', '\u{205f}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{feff}', '\u{feff}'),
];

#[derive(Debug, Clone)]
enum Node {
    Set(CharSet),
    Start,
    End,
    Alt(Vec<Vec<Node>>),
    Repeat(Box<Node>, u32, Option<u32>),
}

struct Parser<'a> {
    chars: core::iter::Peekable<core::str::Chars<'a>>,
}

impl Parser<'_> {
    fn alternation(&mut self) -> Option<Node> {
        let mut branches = vec![self.sequence()?];
        while self.chars.peek() == Some(&'|') {
            self.chars.next();
            branches.push(self.sequence()?);
        }
        Some(Node::Alt(branches))
    }

    fn sequence(&mut self) -> Option<Vec<Node>> {
        let mut seq = Vec::new();
        while let Some(&c) = self.chars.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            seq.push(self.quantified(atom)?);
        }
        Some(seq)
    }

    fn atom(&mut self) -> Option<Node> {
        Some(match self.chars.next()? {
            '^' => Node::Start,
            '$' => Node::End,
            '.' => Node::Set(CharSet {
                ranges: LINE_TERMINATORS.to_vec(),
                negated: true,
            }),
            '(' => {
                if self.chars.peek() == Some(&'?') {
                    self.chars.next();
                    if self.chars.next()? != ':' {
                        return None; // look-around and named groups are not supported
                    }
                }
                let inner = self.alternation()?;
                (self.chars.next()? == ')').then_some(inner)?
            }
            '[' => Node::Set(self.class()?),
            '\\' => Node::Set(self.escape(false)?),
            '*' | '+' | '?' | '{' | ')' | ']' | '}' => return None,
            c => Node::Set(CharSet::one(c)),
        })
    }

    fn quantified(&mut self, atom: Node) -> Option<Node> {
        let (min, max) = match self.chars.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.chars.next();
                let min = self.number()?;
                let max = match self.chars.next()? {
                    '}' => return self.finish_quantifier(atom, min, Some(min)),
                    ',' if self.chars.peek() == Some(&'}') => None,
                    ',' => Some(self.number()?),
                    _ => return None,
                };
                (self.chars.next()? == '}').then_some(())?;
                return self.finish_quantifier(atom, min, max);
            }
            _ => return Some(atom),
        };
        self.chars.next();
        self.finish_quantifier(atom, min, max)
    }

    fn finish_quantifier(&mut self, atom: Node, min: u32, max: Option<u32>) -> Option<Node> {
        if matches!(atom, Node::Start | Node::End) || max.is_some_and(|m| m < min) {
            return None;
        }
        if self.chars.peek() == Some(&'?') {
            self.chars.next(); // lazy: the same language for is_match
        }
        Some(Node::Repeat(Box::new(atom), min, max))
    }

    fn number(&mut self) -> Option<u32> {
        let mut n: Option<u32> = None;
        while let Some(d) = self.chars.peek().and_then(|c| c.to_digit(10)) {
            self.chars.next();
            n = Some(n.unwrap_or(0).checked_mul(10)?.checked_add(d)?);
        }
        n.filter(|n| *n <= 1000)
    }

    fn class(&mut self) -> Option<CharSet> {
        let negated = self.chars.peek() == Some(&'^');
        if negated {
            self.chars.next();
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let c = self.chars.next()?;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = match c {
                '\\' => {
                    let set = self.escape(true)?;
                    if set.ranges.len() != 1 || set.ranges[0].0 != set.ranges[0].1 {
                        ranges.extend(set.ranges);
                        continue;
                    }
                    set.ranges[0].0
                }
                c => c,
            };
            let is_range = self.chars.peek() == Some(&'-') && {
                let mut ahead = self.chars.clone();
                ahead.next();
                ahead.peek().is_some_and(|c| *c != ']')
            };
            if is_range {
                self.chars.next();
                let hi = match self.chars.next()? {
                    '\\' => {
                        let set = self.escape(true)?;
                        (set.ranges.len() == 1 && set.ranges[0].0 == set.ranges[0].1)
                            .then_some(set.ranges[0].0)?
                    }
                    c => c,
                };
                if hi < lo {
                    return None;
                }
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        Some(CharSet { ranges, negated })
    }

    /// After a backslash. Negated shorthands only outside classes.
    fn escape(&mut self, in_class: bool) -> Option<CharSet> {
        let c = self.chars.next()?;
        let set = |r: &[(char, char)], negated| {
            Some(CharSet {
                ranges: r.to_vec(),
                negated,
            })
        };
        match c {
            'd' => set(&DIGIT, false),
            'w' => set(&WORD, false),
            's' => set(&SPACE, false),
            'D' | 'W' | 'S' if in_class => None,
            'D' => set(&DIGIT, true),
            'W' => set(&WORD, true),
            'S' => set(&SPACE, true),
            'n' => Some(CharSet::one('\n')),
            'r' => Some(CharSet::one('\r')),
            't' => Some(CharSet::one('\t')),
            'f' => Some(CharSet::one('\u{c}')),
            'v' => Some(CharSet::one('\u{b}')),
            '0' => Some(CharSet::one('\0')),
            'x' => self.hex(2).map(CharSet::one),
            'u' => self.hex(4).map(CharSet::one),
            c if c.is_ascii_punctuation() => Some(CharSet::one(c)),
            _ => None, // \b, back-references, \p{..}: not supported
        }
    }

    fn hex(&mut self, digits: usize) -> Option<char> {
        let mut v = 0u32;
        for _ in 0..digits {
            v = v * 16 + self.chars.next()?.to_digit(16)?;
        }
        char::from_u32(v)
    }
}

#[derive(Debug, Clone)]
enum Inst {
    Set(CharSet),
    Split(usize, usize),
    Jmp(usize),
    Start,
    End,
    Match,
}

fn compile(node: &Node, prog: &mut Vec<Inst>) -> Option<()> {
    if prog.len() > MAX_PROGRAM {
        return None;
    }
    match node {
        Node::Set(s) => prog.push(Inst::Set(s.clone())),
        Node::Start => prog.push(Inst::Start),
        Node::End => prog.push(Inst::End),
        Node::Alt(branches) => {
            let mut jumps = Vec::new();
            for (i, seq) in branches.iter().enumerate() {
                let split = prog.len();
                if i + 1 < branches.len() {
                    prog.push(Inst::Split(split + 1, 0));
                }
                for n in seq {
                    compile(n, prog)?;
                }
                if i + 1 < branches.len() {
                    jumps.push(prog.len());
                    prog.push(Inst::Jmp(0));
                    let next = prog.len();
                    prog[split] = Inst::Split(split + 1, next);
                }
            }
            let end = prog.len();
            for j in jumps {
                prog[j] = Inst::Jmp(end);
            }
        }
        Node::Repeat(inner, min, max) => {
            for _ in 0..*min {
                compile(inner, prog)?;
            }
            match max {
                None => {
                    let split = prog.len();
                    prog.push(Inst::Split(split + 1, 0));
                    compile(inner, prog)?;
                    prog.push(Inst::Jmp(split));
                    let end = prog.len();
                    prog[split] = Inst::Split(split + 1, end);
                }
                Some(max) => {
                    let mut splits = Vec::new();
                    for _ in *min..*max {
                        splits.push(prog.len());
                        prog.push(Inst::Split(prog.len() + 1, 0));
                        compile(inner, prog)?;
                    }
                    let end = prog.len();
                    for s in splits {
                        prog[s] = Inst::Split(s + 1, end);
                    }
                }
            }
        }
    }
    (prog.len() <= MAX_PROGRAM).then_some(())
}

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Pattern(Vec<Inst>);

impl Pattern {
    /// Compiles an ECMA-262 `pattern`; `None` for syntax this engine does not support.
    pub fn new(pattern: &str) -> Option<Self> {
        let mut parser = Parser {
            chars: pattern.chars().peekable(),
        };
        let node = parser.alternation()?;
        if parser.chars.next().is_some() {
            return None; // an unbalanced ')'
        }
        let mut prog = Vec::new();
        compile(&node, &mut prog)?;
        prog.push(Inst::Match);
        Some(Self(prog))
    }

    /// Whether `text` contains a match (patterns anchor themselves with `^`/`$`).
    pub fn is_match(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let n = self.0.len();
        let mut seen = vec![usize::MAX; n];
        let mut current: Vec<usize> = Vec::new();
        let mut next: Vec<usize> = Vec::new();
        for pos in 0..=chars.len() {
            // Unanchored search: a new thread starts at every position.
            if self.add(&mut current, &mut seen, 0, pos, chars.len()) {
                return true;
            }
            let Some(&c) = chars.get(pos) else { break };
            next.clear();
            for &pc in &current {
                if let Inst::Set(set) = &self.0[pc]
                    && set.contains(c)
                    && self.add(&mut next, &mut seen, pc + 1, pos + 1, chars.len())
                {
                    return true;
                }
            }
            core::mem::swap(&mut current, &mut next);
        }
        false
    }

    /// Adds `pc` and its epsilon closure at `pos`; true when `Match` is reached.
    fn add(
        &self,
        list: &mut Vec<usize>,
        seen: &mut [usize],
        pc: usize,
        pos: usize,
        len: usize,
    ) -> bool {
        let mut stack = vec![pc];
        while let Some(pc) = stack.pop() {
            if seen[pc] == pos {
                continue;
            }
            seen[pc] = pos;
            match &self.0[pc] {
                Inst::Match => return true,
                Inst::Jmp(t) => stack.push(*t),
                Inst::Split(a, b) => {
                    stack.push(*b);
                    stack.push(*a);
                }
                Inst::Start if pos == 0 => stack.push(pc + 1),
                Inst::End if pos == len => stack.push(pc + 1),
                Inst::Start | Inst::End => {}
                Inst::Set(_) => list.push(pc),
            }
        }
        false
    }
}

#[cfg(test)]
mod tests;
