package hcode

import "testing"

// TestIntPrefixSizes round-trips integers at every prefix size QPACK uses
// (RFC 9204 §4.1.1: 1 to 8 bits) at the prefix boundaries and at 2^62-1,
// keeping the flag bits, and rejects what lies above the maximum.
func TestIntPrefixSizes(t *testing.T) {
	for n := uint(1); n <= 8; n++ {
		flags := byte(0xff) << n // n == 8 leaves none
		for _, v := range []uint64{0, 1<<n - 2, 1<<n - 1, 1 << n, 1<<n + 127, 1<<n + 128, 1<<32 - 1, 1 << 32, MaxInt62} {
			enc := AppendInt([]byte{0xaa}, n, flags, v)
			if len(enc)-1 != IntLen(n, v) {
				t.Errorf("n=%d v=%d: %d bytes, IntLen says %d", n, v, len(enc)-1, IntLen(n, v))
			}
			if n < 8 && enc[1]&flags != flags {
				t.Errorf("n=%d v=%d: flags lost: %08b", n, v, enc[1])
			}
			got, size, res := ReadInt(enc[1:], n, MaxInt62)
			if res != IntOK || got != v || size != len(enc)-1 {
				t.Errorf("n=%d v=%d: read %d, %d bytes, %v", n, v, got, size, res)
			}
			if _, _, res := ReadInt(enc[1:len(enc)-1], n, MaxInt62); len(enc) > 2 && res != IntTruncated {
				t.Errorf("n=%d v=%d: truncated read gives %v", n, v, res)
			}
			if v >= 1<<n-1 { // a value within the prefix is returned as it is
				if _, _, res := ReadInt(enc[1:], n, v-1); res != IntOverflow {
					t.Errorf("n=%d v=%d: max v-1 gives %v, want overflow", n, v, res)
				}
			}
		}
		// Over 62 bits: 2^62 and 2^64-1 are rejected, whatever max says.
		for _, v := range []uint64{MaxInt62 + 1, 1<<64 - 1} {
			if _, _, res := ReadInt(AppendInt(nil, n, 0, v), n, 1<<64-1); res != IntOverflow {
				t.Errorf("n=%d v=%d: %v, want overflow", n, v, res)
			}
		}
	}
}
