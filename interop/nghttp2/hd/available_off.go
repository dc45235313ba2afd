//go:build !nghttp2

package hd

// Available reports whether the package was built against libnghttp2.
const Available = false
