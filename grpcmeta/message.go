package grpcmeta

const upperHex = "0123456789ABCDEF"

// AppendMessage appends msg percent-encoded as a grpc-message value and
// returns the extended buffer: bytes from 0x20 to 0x7E but '%' go as
// they are, every other byte as '%' and two upper-case hex digits. Any
// bytes may be encoded (grpc-go first replaces invalid UTF-8 with
// U+FFFD), and DecodeMessage gives them back. It does not allocate
// beyond growing dst.
func AppendMessage[T ~string | ~[]byte](dst []byte, msg T) []byte {
	start := 0
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if ' ' <= c && c <= '~' && c != '%' {
			continue
		}
		dst = append(dst, msg[start:i]...)
		dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		start = i + 1
	}
	return append(dst, msg[start:]...)
}

// DecodeMessage appends the bytes that the grpc-message value v
// percent-encodes and returns the extended buffer. It is lenient, as the
// protocol requires of receivers: a '%' that two hex digits (of either
// case) do not follow is kept, with what follows it ("%zz" and "100%"
// come out unchanged). It does not allocate beyond growing dst.
func DecodeMessage[T ~string | ~[]byte](dst []byte, v T) []byte {
	start := 0
	for i := 0; i+2 < len(v); i++ {
		if v[i] != '%' {
			continue
		}
		hi, lo := unhex(v[i+1]), unhex(v[i+2])
		if hi|lo > 15 {
			continue // malformed: the '%' stays
		}
		dst = append(dst, v[start:i]...)
		dst = append(dst, hi<<4|lo)
		i += 2
		start = i + 1
	}
	return append(dst, v[start:]...)
}

// unhex returns the value of hex digit c, or 0xff when c is none.
func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return 0xff
}
