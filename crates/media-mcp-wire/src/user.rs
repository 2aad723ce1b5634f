//! The rule for a user name to act as. The name travels upstream as the `UserName` header, and
//! is written in the comma lists `MEDIA_MCP_HTTP_TOKENS` and `MEDIA_MCP_OAUTH_USER_MAP`: so it
//! is printable ASCII, at most [`MAX_USER_NAME_CHARS`] long, and holds no comma.

/// Longest user name accepted.
pub const MAX_USER_NAME_CHARS: usize = 256;

/// Why a user name cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserNameError {
    /// The name is empty.
    Empty,
    /// The name has a character outside ASCII.
    NotAscii,
    /// The name has a control character (a line break, a tab).
    Control,
    /// The name is longer than [`MAX_USER_NAME_CHARS`].
    TooLong,
    /// The name has a comma, which separates the entries of a list.
    Comma,
}

impl UserNameError {
    /// Why, as the end of a sentence naming the name (it is never echoed).
    pub fn why(self) -> &'static str {
        match self {
            UserNameError::Empty => "is empty",
            UserNameError::NotAscii | UserNameError::Control => {
                "must be printable ASCII: it is sent as the UserName header, and header values carry ASCII only"
            }
            UserNameError::TooLong => {
                "must be at most 256 characters: it is sent as the UserName header"
            }
            UserNameError::Comma => {
                "must not contain a comma: a comma separates the values of a list"
            }
        }
    }
}

/// Checks a user name to act as, as given (surrounding spaces are the caller's to trim).
///
/// # Errors
///
/// The first rule the name breaks, in the order of [`UserNameError`]'s variants.
pub fn check_user_name(user: &str) -> Result<(), UserNameError> {
    if user.is_empty() {
        Err(UserNameError::Empty)
    } else if !user.is_ascii() {
        Err(UserNameError::NotAscii)
    } else if user.bytes().any(|b| b.is_ascii_control()) {
        Err(UserNameError::Control)
    } else if user.len() > MAX_USER_NAME_CHARS {
        Err(UserNameError::TooLong)
    } else if user.contains(',') {
        Err(UserNameError::Comma)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_ascii_up_to_256_characters_without_a_comma() {
        assert_eq!(check_user_name("alice"), Ok(()));
        assert_eq!(check_user_name("Jane Doe (ops)"), Ok(()));
        assert_eq!(check_user_name(&"u".repeat(MAX_USER_NAME_CHARS)), Ok(()));
        assert_eq!(check_user_name(""), Err(UserNameError::Empty));
        assert_eq!(check_user_name("zoë"), Err(UserNameError::NotAscii));
        assert_eq!(check_user_name("a\tb"), Err(UserNameError::Control));
        assert_eq!(check_user_name("a\u{7f}"), Err(UserNameError::Control));
        let long = "u".repeat(MAX_USER_NAME_CHARS + 1);
        assert_eq!(check_user_name(&long), Err(UserNameError::TooLong));
        assert_eq!(check_user_name("a,b"), Err(UserNameError::Comma));
    }
}
