//go:build !nghttp3

package ngqpack

// Available reports whether the package was built against libnghttp3.
const Available = false
