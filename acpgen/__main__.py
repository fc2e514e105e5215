from acpgen.cli.main import main

main()
