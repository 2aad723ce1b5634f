use super::*;
use serde_json::json;

#[test]
fn moviepilots_failure_sentences_are_failures_and_the_rest_claims_nothing() {
    // Answers of MoviePilot v2.9.15, recorded.
    for (text, code) in [
        (
            "错误：无效的媒体类型 'film'，支持的类型：'movie', 'tv'",
            ErrorCode::InvalidArgument,
        ),
        (
            "参数错误：hash 格式无效，请先使用 query_download_tasks 工具获取正确的 hash。",
            ErrorCode::InvalidArgument,
        ),
        (
            "添加订阅失败：未识别到媒体信息",
            ErrorCode::UpstreamRejected,
        ),
        (
            "站点连通性测试失败：LoopbackPT (pt.invalid)\n无法打开网站！",
            ErrorCode::UpstreamRejected,
        ),
        ("订阅 ID 99 不存在", ErrorCode::NotFound),
        (
            "错误: 工具 'execute_command' 未找到",
            ErrorCode::UpstreamRejected,
        ),
    ] {
        assert_eq!(verdict(text), Verdict::Failed(code), "{text}");
    }
    for text in [
        "未配置下载器。",
        "成功删除订阅：Severance (2022)",
        "消息已发送",
        "未找到相关订阅",
        "成功触发定时服务：缓存清理 (ID: clear_cache)",
    ] {
        assert_eq!(verdict(text), Verdict::Neutral, "{text}");
    }
}

#[test]
fn a_notice_line_and_json_are_both_kept() {
    let (notice, json) = notice_and_json(
        "注意：查询结果共找到 62 条，为节省上下文空间，仅显示前 50 条结果。\n\n[{\"id\": 1}]",
    )
    .unwrap();
    assert!(says_cut(&notice));
    assert_eq!(json, json!([{"id": 1}]));
    let (notice, _) =
        notice_and_json("第 1/1 页，共 1 条记录（每页 50 条）\n\n[\n {\"id\": 1}\n]").unwrap();
    assert!(!says_cut(&notice));
    assert!(notice_and_json("[1]").is_none());
    assert!(notice_and_json("站点 [x] 已更新").is_none());
    assert!(notice_and_json("说明\n[不是 JSON").is_none());
}
