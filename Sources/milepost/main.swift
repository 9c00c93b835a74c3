import MilepostCLI

await MilepostCLI.main()
