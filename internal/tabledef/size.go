package tabledef

// FieldOverhead is the 32 bytes that RFC 7541 §4.1 adds to a dynamic-table
// entry's name and value, and that RFC 9113 §6.5.2 and RFC 9204 §3.2.1 add
// to each field of a header list and QPACK entry. It is the module's one
// spelling of that number.
const FieldOverhead = 32
