package redact

var (
	awsKey  = shapes[2].re
	pemHead = shapes[0].re
)
