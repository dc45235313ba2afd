package grpcmeta

import (
	"github.com/metapack/metapack/internal/httpfield"
	"github.com/metapack/metapack/internal/httpfield/fieldkey"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// ValidateMetadata checks the metadata of a request, response or
// trailers against the protocol's grammar and returns a *FieldError for
// the first field that breaks it; nil b is an empty list. Pseudo-headers
// are left to ValidateRequest and ValidateResponse. Every other field
// must have:
//
//   - a Header-Name: one or more of 0-9 a-z _ - . (ErrName);
//   - a name that does not start with "grpc-", unless the protocol
//     defines it (ErrName);
//   - for a name ending in "-bin", a value that DecodeBinary decodes:
//     base64, padded or not (ErrValue);
//   - for other names, an ASCII-Value: bytes 0x20 to 0x7E (ErrValue),
//     or, as grpc-go allows, none.
//
// Use it on metadata about to be sent: the protocol asks receivers to
// drop such fields rather than fail the call. It does not allocate
// unless it fails.
func ValidateMetadata(b *mdelem.Batch) error {
	n := 0
	if b != nil {
		n = b.Len()
	}
	for i := range n {
		f := b.At(i)
		var binary bool
		if a := f.Name.Atom(); a != nil && a.Key() != staticdata.KeyUnknown {
			// A well-known name follows the grammar (TestKeyNamesAreMetadataNames)
			// and is not reserved: its only grpc- names are the protocol's.
			if fieldkey.Pseudo(a.Key()) != 0 {
				continue
			}
			binary = IsBinary(a.String())
		} else {
			var off int
			var reason string
			var err error
			if a != nil {
				name := a.String()
				if len(name) > 0 && name[0] == ':' {
					continue
				}
				off, reason, err = checkMetadataName(name)
				binary = IsBinary(name)
			} else {
				name := f.Name.UnsafeBytes()
				if len(name) > 0 && name[0] == ':' {
					continue
				}
				off, reason, err = checkMetadataName(name)
				binary = IsBinary(name)
			}
			if err != nil {
				return valueErr(i, f.Name.String(), off, reason, err)
			}
		}
		if off, reason, err := checkMetadataValue(f.Value, binary); err != nil {
			return valueErr(i, f.Name.String(), off, reason, err)
		}
	}
	return nil
}

// checkMetadataName checks a name that is no well-known key.
func checkMetadataName[T string | []byte](name T) (int, string, error) {
	if len(name) == 0 {
		return -1, "empty", ErrName
	}
	if i := httpfield.Outside(name, httpfield.GRPC); i >= 0 {
		return i, "not one of 0-9 a-z _ - .", ErrName
	}
	if len(name) >= 5 && string(name[:5]) == "grpc-" && !definedGRPCName(name) {
		return -1, "not a name the protocol defines", ErrName
	}
	return 0, "", nil
}

// definedGRPCName reports whether name is a grpc- name the protocol
// defines that is no well-known key (those are atoms in a batch).
func definedGRPCName[T string | []byte](name T) bool { return string(name) == "grpc-message-type" }

// checkMetadataValue checks a value as Base64 or as an ASCII-Value.
func checkMetadataValue(v mdelem.Str, binary bool) (int, string, error) {
	if a := v.Atom(); a != nil {
		if binary {
			return checkBinaryValue(a.String())
		}
		return checkASCII(a.String())
	}
	if binary {
		return checkBinaryValue(v.UnsafeBytes())
	}
	return checkASCII(v.UnsafeBytes())
}

func checkBinaryValue[T ~string | ~[]byte](v T) (int, string, error) {
	if off, reason := checkBase64(v); reason != "" {
		return off, reason, ErrValue
	}
	return 0, "", nil
}

func checkASCII[T ~string | ~[]byte](v T) (int, string, error) {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' || c > '~' {
			return i, "not a byte from 0x20 to 0x7E", ErrValue
		}
	}
	return 0, "", nil
}
