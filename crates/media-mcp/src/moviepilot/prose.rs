//! MoviePilot's prose answers. Its per-purpose tools (v2.9.15) answer most calls, successes and
//! failures alike, with a Chinese sentence and no `isError`: `错误：无效的媒体类型 'film'…`,
//! `添加订阅失败：未识别到媒体信息`, `参数错误：…`, `订阅 ID 99 不存在`, but also `未配置下载器。` or
//! `成功删除订阅：…`. Lists may come as a notice line, a blank line, then JSON
//! (`注意：查询结果共找到 62 条，…仅显示前 50 条结果。`, `第 1/1 页，共 1 条记录（每页 50 条）`).
//!
//! A sentence is a failure only on MoviePilot's own failure wording at its start; anything else
//! is passed on as text that claims nothing.

use crate::contract::ErrorCode;
use crate::prelude::*;
use serde_json::Value;

/// What a prose answer says about the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// MoviePilot says the call failed; the code of our error.
    Failed(ErrorCode),
    /// Neither a success nor a failure can be read from it.
    Neutral,
}

/// How the first line of a failure starts: `错误：…` / `错误: …` (an error), `参数错误：…` (bad
/// arguments).
const FAILURE_PREFIXES: [&str; 3] = ["错误", "参数错误", "Error"];
/// Words that make the first line a failure: `添加订阅失败：…`, `站点连通性测试失败：…`,
/// `订阅 ID 99 不存在`, `站点不存在: 99`.
const FAILURE_WORDS: [&str; 2] = ["失败", "不存在"];
/// Words of a failure that blame the arguments.
const ARGUMENT_WORDS: [&str; 3] = ["参数错误", "无效", "格式"];

/// What the prose `text` says.
pub fn verdict(text: &str) -> Verdict {
    let first = text.trim().lines().next().unwrap_or("").trim();
    let prefixed = FAILURE_PREFIXES.iter().any(|p| first.starts_with(p));
    // `成功…` lines (a success that mentions a failed part) are not failures.
    let worded = !first.starts_with("成功") && FAILURE_WORDS.iter().any(|w| first.contains(w));
    if !prefixed && !worded {
        return Verdict::Neutral;
    }
    Verdict::Failed(if ARGUMENT_WORDS.iter().any(|w| first.contains(w)) {
        ErrorCode::InvalidArgument
    } else if first.contains("不存在") {
        ErrorCode::NotFound
    } else {
        ErrorCode::UpstreamRejected
    })
}

/// A notice line (or lines) followed by JSON, split into the notice and the JSON value; `None`
/// when the text is not of that shape.
pub fn notice_and_json(text: &str) -> Option<(String, Value)> {
    let trimmed = text.trim();
    let start = trimmed.find(['[', '{'])?;
    // The JSON begins a line of its own after the notice.
    if start == 0 || !trimmed[..start].ends_with('\n') {
        return None;
    }
    let json: Value = serde_json::from_str(&trimmed[start..]).ok()?;
    let notice = trimmed[..start].trim();
    (!notice.is_empty()).then(|| (notice.to_owned(), json))
}

/// Whether a notice says MoviePilot showed only part of the results (`仅显示前 50 条结果`,
/// `仅显示前 20 个项目`).
pub fn says_cut(notice: &str) -> bool {
    notice.contains("仅显示前")
}

#[cfg(test)]
mod tests;
