package grpcmeta

import "strings"

// ContentType is what a content-type value says of a gRPC message:
// "application/grpc", then optionally "+" and a subtype, or parameters.
type ContentType uint8

// The content types Value.ContentType tells apart.
const (
	ContentTypeOther  ContentType = iota // not gRPC: a server answers 415
	ContentTypeGRPC                      // "application/grpc", no subtype
	ContentTypeProto                     // "application/grpc+proto"
	ContentTypeJSON                      // "application/grpc+json"
	ContentTypeCustom                    // "application/grpc+" another subtype, or parameters
)

// parseContentType classifies a content-type value: "application/grpc"
// case-sensitively, as gRPC implementations match it, the subtype in any
// case.
func parseContentType[T ~string | ~[]byte](v T) ContentType {
	const base = "application/grpc"
	if len(v) < len(base) || string(v[:len(base)]) != base {
		return ContentTypeOther
	}
	if len(v) == len(base) {
		return ContentTypeGRPC
	}
	switch v[len(base)] {
	case '+':
	case ';':
		return ContentTypeCustom
	default:
		return ContentTypeOther // "application/grpcfoo"
	}
	sub := v[len(base)+1:]
	for i := 0; i < len(sub); i++ {
		if sub[i] == ';' {
			sub = sub[:i]
			break
		}
	}
	switch {
	case len(sub) == 5 && strings.EqualFold(string(sub), "proto"):
		return ContentTypeProto
	case len(sub) == 4 && strings.EqualFold(string(sub), "json"):
		return ContentTypeJSON
	}
	return ContentTypeCustom
}

// Coding is a Content-Coding of grpc-encoding or content-encoding.
type Coding uint8

// The codings Value.Coding tells apart; CodingOther is any other.
const (
	CodingOther Coding = iota
	CodingIdentity
	CodingGzip
	CodingDeflate
	CodingSnappy
)

// parseEncoding classifies a grpc-encoding value.
func parseEncoding[T ~string | ~[]byte](v T) Coding {
	switch string(v) {
	case "identity":
		return CodingIdentity
	case "gzip":
		return CodingGzip
	case "deflate":
		return CodingDeflate
	case "snappy":
		return CodingSnappy
	}
	return CodingOther
}

// parseAcceptEncoding parses a grpc-accept-encoding value into a set of
// codings, bit c for Coding c, skipping empty elements.
func parseAcceptEncoding[T ~string | ~[]byte](v T) uint8 {
	var s uint8
	for len(v) > 0 {
		i := 0
		for i < len(v) && v[i] != ',' {
			i++
		}
		if elem := trimOWS(v[:i]); len(elem) > 0 {
			s |= 1 << parseEncoding(elem)
		}
		if i == len(v) {
			break
		}
		v = v[i+1:]
	}
	return s
}

func trimOWS[T ~string | ~[]byte](v T) T {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
	}
	for len(v) > 0 && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
		v = v[:len(v)-1]
	}
	return v
}
