package tabledef

// IsName reports whether s is a valid lowercase HTTP/2 field name (RFC 9113
// §8.2.1): a token of RFC 9110 §5.6.2 without uppercase letters, after the
// ':' of a pseudo-header.
func IsName(s string) bool {
	if len(s) > 0 && s[0] == ':' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c <= ' ' || c >= 0x7f || 'A' <= c && c <= 'Z':
			return false
		default:
			switch c {
			case '"', '(', ')', ',', '/', ':', ';', '<', '=', '>', '?', '@', '[', '\\', ']', '{', '}':
				return false
			}
		}
	}
	return true
}
