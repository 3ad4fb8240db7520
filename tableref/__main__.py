from tableref.cli import main

raise SystemExit(main())
