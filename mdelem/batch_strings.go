package mdelem

import "strings"

// AppendStrings appends the name and then the value of each of b's fields,
// in order, to dst, as strings that stay valid after b is Reset: the step
// from a batch to code that keeps strings, such as an http.Header. Atoms
// (static or interned) are their canonical strings; all other bytes are
// copied into one new string that the rest share, so a batch costs at most
// one allocation besides dst's growth. A nil b appends nothing.
func (b *Batch) AppendStrings(dst []string) []string {
	if b == nil {
		return dst
	}
	n := 0
	for _, f := range b.fields {
		n += copiedLen(f.Name) + copiedLen(f.Value)
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, f := range b.fields {
		if f.Name.Atom() == nil {
			sb.Write(f.Name.bytes())
		}
		if f.Value.Atom() == nil {
			sb.Write(f.Value.bytes())
		}
	}
	all := sb.String()
	for _, f := range b.fields {
		var name, value string
		name, all = stringFrom(f.Name, all)
		value, all = stringFrom(f.Value, all)
		dst = append(dst, name, value)
	}
	return dst
}

// copiedLen is the bytes of s that AppendStrings copies.
func copiedLen(s Str) int {
	if s.Atom() != nil {
		return 0
	}
	return len(s.bytes())
}

// stringFrom returns s as a string, an atom's own or the next s.Len()
// bytes of all, and what follows them in all.
func stringFrom(s Str, all string) (string, string) {
	if a := s.Atom(); a != nil {
		return a.String(), all
	}
	n := len(s.bytes())
	return all[:n], all[n:]
}
