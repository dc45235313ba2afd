package guardpage

import "testing"

// Before returns a buffer of n bytes (len and cap n) whose last byte is
// directly followed by an inaccessible page. The buffer is unmapped when
// the test ends. It skips t where guard pages are not supported.
func Before(t testing.TB, n int) []byte {
	t.Helper()
	m := mapGuarded(t, n)
	end := m.dataEnd
	return m.mem[end-n : end : end]
}

// After returns a buffer of n bytes (len and cap n) whose first byte
// directly follows an inaccessible page.
func After(t testing.TB, n int) []byte {
	t.Helper()
	m := mapGuarded(t, n)
	start := m.dataStart
	return m.mem[start : start+n : start+n]
}

// CopyBefore returns a copy of b in a buffer from Before: the copy's last
// byte is the last readable one.
func CopyBefore(t testing.TB, b []byte) []byte {
	t.Helper()
	g := Before(t, len(b))
	copy(g, b)
	return g
}

// CopyAfter returns a copy of b in a buffer from After.
func CopyAfter(t testing.TB, b []byte) []byte {
	t.Helper()
	g := After(t, len(b))
	copy(g, b)
	return g
}

// StringBefore is CopyBefore for a string: the string's bytes end at the
// guard page. It must not be modified; the mapping is writable, but Go
// strings are not.
func StringBefore(t testing.TB, s string) string {
	t.Helper()
	return bytesString(CopyBefore(t, []byte(s)))
}

// StringAfter is CopyAfter for a string.
func StringAfter(t testing.TB, s string) string {
	t.Helper()
	return bytesString(CopyAfter(t, []byte(s)))
}

// Region is a reusable mapping: one allocation that many buffers of up to
// its size can be placed in, against either guard, which is faster than a
// mapping per buffer for tests that try thousands of inputs.
type Region struct {
	m *mapping
}

// NewRegion maps a region for buffers of up to n bytes.
func NewRegion(t testing.TB, n int) *Region {
	t.Helper()
	return &Region{m: mapGuarded(t, n)}
}

// Before returns a buffer of n bytes, at most the region's size, that ends
// at the region's trailing guard page. Buffers from one region overlap:
// each call invalidates the ones before it.
func (r *Region) Before(n int) []byte {
	end := r.m.dataEnd
	if n > end-r.m.dataStart {
		panic("guardpage: buffer larger than its region")
	}
	return r.m.mem[end-n : end : end]
}

// After returns a buffer of n bytes that starts at the region's leading
// guard page.
func (r *Region) After(n int) []byte {
	start := r.m.dataStart
	if n > r.m.dataEnd-start {
		panic("guardpage: buffer larger than its region")
	}
	return r.m.mem[start : start+n : start+n]
}

// CopyBefore copies b into r.Before(len(b)).
func (r *Region) CopyBefore(b []byte) []byte {
	g := r.Before(len(b))
	copy(g, b)
	return g
}

// CopyAfter copies b into r.After(len(b)).
func (r *Region) CopyAfter(b []byte) []byte {
	g := r.After(len(b))
	copy(g, b)
	return g
}
