package qpack

// A HeaderField is a name-value pair. Both the name and value are
// treated as opaque sequences of octets.
type HeaderField struct {
	Name  string
	Value string
}

// IsPseudo reports whether the field's name starts with a colon, as
// HTTP/3's pseudo-header fields do. It does not check that the name is a
// valid pseudo-header field name.
func (hf HeaderField) IsPseudo() bool {
	return len(hf.Name) != 0 && hf.Name[0] == ':'
}
